/**
 * The part of `interpreter debug config` (and `/debug-config`) that lists the other agents'
 * setups a session reads: per kind, each file or folder of `SETUP_LOCATIONS` that exists, with
 * its vendor and scope, and what is skipped and why: user-level MCP servers, hooks, permission
 * rules and env not named in `import_user_setups`, a project not trusted, held-back files. Only
 * existence is checked here; each kind's reader parses its own files.
 */
import { join, relative } from "node:path";
import {
  READ_WHEN_UNTRUSTED,
  SETUP_LOCATIONS,
  type SetupKind,
  type SetupLocation,
} from "./locations.ts";
import { projectFolders, type SetupContext, type UserSetupKind, VENDOR_NAMES } from "./sources.ts";

/** The kinds in the order listed, with the words used for them. */
const KIND_TITLES: ReadonlyArray<[SetupKind, string]> = [
  ["commands", "commands"],
  ["agents", "sub-agents"],
  ["mcp", "MCP servers"],
  ["settings", "settings (hooks, permission rules, env, status line)"],
  ["instructions", "instruction files"],
];

/** Which `import_user_setups` kinds a user-level file of `kind` holds (none: always read). */
const USER_IMPORTS: Partial<Record<SetupKind, readonly UserSetupKind[]>> = {
  mcp: ["mcp"],
  settings: ["hooks", "permissions", "env"],
};

/** Which harnesses read a vendor's instruction files. */
const INSTRUCTION_READERS: Record<string, string> = {
  claude: "claude-code harnesses",
  gemini: "gemini-cli",
  qwen: "qwen-code",
};

/** One location that exists, as listed. */
interface Found {
  kind: SetupKind;
  line: string;
}

/** The section's lines (each starting with `# `); one line when nothing exists. */
export async function setupSourcesReport(ctx: SetupContext): Promise<string[]> {
  const found: Found[] = [];
  const skipped: string[] = [];
  for (const location of SETUP_LOCATIONS) {
    if (location.scope !== "user") continue;
    const base = location.vendor === "ours" ? ctx.home : ctx.userHome;
    if (base === undefined) continue;
    const path = join(base, location.path);
    if (await exists(path)) userLine(location, path, ctx, { found, skipped });
  }
  const untrusted = new Set<string>();
  for (const folder of projectFolders(ctx).reverse()) {
    for (const location of SETUP_LOCATIONS.filter((l) => l.scope === "project")) {
      const path = join(folder, location.path);
      if (!(await exists(path))) continue;
      const what = `${path} (${VENDOR_NAMES[location.vendor]}, project)`;
      // Commands, sub-agents and instruction files are read in any project (locations.ts).
      if (!ctx.projectTrusted && !READ_WHEN_UNTRUSTED.has(location.kind)) untrusted.add(path);
      else if (ctx.isHeldBack?.(path)) skipped.push(`${what}: held back, ${HELD_BACK}`);
      else found.push({ kind: location.kind, line: what + readers(location) });
    }
  }
  if (untrusted.size > 0) {
    skipped.push(
      `${untrusted.size} of the project's MCP and settings file${untrusted.size === 1 ? "" : "s"}` +
        ' (only their deny and ask rules apply): the project is not trusted; "interpreter ' +
        'trust" trusts it',
    );
  }
  return formatted(found, skipped);
}

const HELD_BACK = 'it changed while an earlier session ran ("interpreter trust-changes" allows it)';

/** A user-level location that exists: read, read in part, or skipped for `import_user_setups`. */
function userLine(
  location: SetupLocation,
  path: string,
  ctx: SetupContext,
  out: { found: Found[]; skipped: string[] },
): void {
  const what = `${path} (${VENDOR_NAMES[location.vendor]}, user)`;
  const kinds = location.vendor === "ours" ? undefined : USER_IMPORTS[location.kind];
  if (!kinds) {
    out.found.push({ kind: location.kind, line: what + readers(location) });
    return;
  }
  const taken = kinds.filter((k) => ctx.importUser.has(k));
  const left = kinds.filter((k) => !ctx.importUser.has(k));
  if (taken.length) out.found.push({ kind: location.kind, line: `${what}: ${taken.join(", ")}` });
  if (left.length) {
    out.skipped.push(
      `${what}: ${left.join(", ")} not imported; add ${
        left.map((k) => `"${k}"`).join(", ")
      } to import_user_setups to use ${left.length === 1 ? "it" : "them"}`,
    );
  }
}

function readers(location: SetupLocation): string {
  const who = location.kind === "instructions" ? INSTRUCTION_READERS[location.vendor] : undefined;
  return who ? `: read by ${who}` : "";
}

function formatted(found: Found[], skipped: string[]): string[] {
  const lines = ["# other agents' setups read:"];
  for (const [kind, title] of KIND_TITLES) {
    const of = found.filter((f) => f.kind === kind);
    if (of.length) lines.push(`#   ${title}:`, ...of.map((f) => `#     ${f.line}`));
  }
  if (lines.length === 1) lines[0] += " none";
  if (skipped.length) {
    lines.push(
      "# other agents' setups skipped:",
      ...skipped.map((s) => `#   ${s}`),
    );
  }
  return lines;
}

/**
 * The MCP and settings files of other agents in a project that is not trusted (so not read,
 * but for their deny and ask rules), relative to the project root: what a session names when it
 * leaves them off.
 */
export async function unreadProjectSetupFiles(ctx: SetupContext): Promise<string[]> {
  const out: string[] = [];
  for (const folder of projectFolders(ctx).reverse()) {
    for (const location of SETUP_LOCATIONS) {
      if (location.scope !== "project" || READ_WHEN_UNTRUSTED.has(location.kind)) continue;
      const path = join(folder, location.path);
      if (!out.includes(path) && await exists(path)) out.push(path);
    }
  }
  return out.map((path) => relative(ctx.projectRoot, path));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
