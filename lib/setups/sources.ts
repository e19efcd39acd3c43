/**
 * Where the setups people wrote for other agents live, and how they are read (issue 33; formats in
 * `lib/setups/FORMATS.md`). Everything here reads live, at session start, with no import step:
 * the project's folders from its root down to the working directory (as AGENTS.md is read) and
 * the user's home. A project's files are read only when the project is trusted, only as bounded
 * regular files that lie inside the project once links are resolved, and never while held back
 * (they changed while an earlier session ran). The user's own commands, agents and instruction
 * files of other agents are read by default; their MCP servers, hooks, permission rules and `env`
 * only when `import_user_setups` names the kind.
 *
 * On a name clash (commands, agents, MCP servers) our built-ins win, then the user's definitions,
 * then the project's, whatever the vendor does: a cloned repository cannot replace a user's
 * command. `resolveClashes()` applies that order and words the one warning per clash.
 */
import { dirname, join } from "node:path";
import type { EffectiveConfig } from "../config/mod.ts";
import type { USER_SETUP_KINDS } from "../config/schema.ts";
import { ConfigError } from "../errors.ts";
import { readInputFile } from "../input_file.ts";
import { checkInstructionFile, realRoot } from "../workspace/_file_checks.ts";

/** Whose format a definition is written in. */
export type SetupVendor = "ours" | "claude" | "gemini" | "qwen" | "codex" | "opencode" | "cursor";

/** Where a definition comes from, highest precedence first. */
export type SetupScope = "builtin" | "user" | "project";

/** A kind `import_user_setups` can take in from other agents' user-level files. */
export type UserSetupKind = typeof USER_SETUP_KINDS[number];

/** The vendors' names as people know them, for listings and warnings. */
export const VENDOR_NAMES: Record<SetupVendor, string> = {
  ours: "interpreter",
  claude: "Claude Code",
  gemini: "Gemini CLI",
  qwen: "Qwen Code",
  codex: "Codex",
  opencode: "opencode",
  cursor: "Cursor",
};

/** Most bytes of one setup file (a command, an agent, a settings file). */
const SETUP_FILE_MAX_BYTES = 256 * 1024;

/** What every reader of other agents' setups needs to know about the session. */
export interface SetupContext {
  cwd: string;
  projectRoot: string;
  /** Our config home (`~/.openinterpreter`). */
  home: string;
  /** The user's home directory (`$HOME`); undefined leaves user-level files of other agents out. */
  userHome?: string;
  /** The project is trusted: its files are read. */
  projectTrusted: boolean;
  /** The user-level kinds `import_user_setups` names. */
  importUser: ReadonlySet<UserSetupKind>;
  /** True for a project file held back because it changed while an earlier session ran. */
  isHeldBack?: (path: string) => boolean;
  /** The ids of our own `[mcp_servers]`: they come before other agents' servers of that name. */
  mcpServerIds?: readonly string[];
}

/** The setup context of a session with effective config `config`. */
export function setupContext(
  config: Pick<EffectiveConfig, "cwd" | "projectRoot" | "home" | "trust" | "values">,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (path: string) => boolean },
): SetupContext {
  return {
    cwd: config.cwd,
    projectRoot: config.projectRoot,
    home: config.home,
    userHome: opts.env.HOME || undefined,
    projectTrusted: config.trust === "trusted",
    importUser: new Set(config.values.import_user_setups ?? []),
    isHeldBack: opts.isHeldBack,
    mcpServerIds: Object.keys(config.values.mcp_servers ?? {}),
  };
}

/** The project's folders from its root down to the working directory, root first. */
export function projectFolders(ctx: Pick<SetupContext, "cwd" | "projectRoot">): string[] {
  const folders: string[] = [];
  for (let dir = ctx.cwd;; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dir === ctx.projectRoot || dirname(dir) === dir) break;
  }
  return folders;
}

/** The user-level folder of `vendor` under `$HOME` (`~/.claude`, `~/.config/opencode`). */
export function userVendorDir(userHome: string, vendor: Exclude<SetupVendor, "ours">): string {
  return vendor === "opencode"
    ? join(userHome, ".config", "opencode")
    : join(userHome, `.${vendor}`);
}

/**
 * The text of the setup file at `path`, or undefined when there is none (or it is held back).
 * A project's file (`scope` "project") must resolve inside the project root; any file must be a
 * regular file of at most `SETUP_FILE_MAX_BYTES`. Anything else is a `ConfigError` naming the
 * file and the fix, for the caller to turn into a warning.
 */
export async function readSetupFile(
  path: string,
  ctx: Pick<SetupContext, "projectRoot" | "isHeldBack">,
  scope: Exclude<SetupScope, "builtin">,
): Promise<string | undefined> {
  if (scope === "project" && ctx.isHeldBack?.(path)) return undefined;
  const check = await checkInstructionFile(
    path,
    scope === "project" ? await realRoot(ctx.projectRoot) : undefined,
  );
  if (check.kind === "missing") return undefined;
  if (check.kind === "refused") {
    throw new ConfigError(`Skipped ${path}: ${check.problem}`, {
      hint: "Replace it with a regular file inside the project, or remove it",
    });
  }
  const bytes = await readInputFile(check.real, {
    what: "setup file",
    maxBytes: SETUP_FILE_MAX_BYTES,
  }).catch((error) => {
    throw new ConfigError(`Skipped ${path}: ${error instanceof Error ? error.message : error}`, {
      hint: `Keep setup files under ${SETUP_FILE_MAX_BYTES / 1024} KiB`,
    });
  });
  return new TextDecoder().decode(bytes);
}

/**
 * Parses JSON, or JSONC (comments and trailing commas, as opencode.jsonc and VS Code files have)
 * when `path` ends in `.jsonc` or plain JSON fails; a bad file is a `ConfigError` naming the file,
 * the line and the fix.
 */
export function parseSetupJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    try {
      return JSON.parse(stripJsonComments(text));
    } catch {
      const line = errorLine(text, error);
      throw new ConfigError(
        `${path}${line ? `, line ${line}` : ""} is not valid JSON: ${
          error instanceof Error ? error.message : error
        }`,
        { hint: "Fix the file (a missing comma or quote is the usual cause), or remove it" },
      );
    }
  }
}

/** `text` without `//` and `/* *\/` comments and trailing commas, strings left as they are. */
function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const comment = text.slice(i, end < 0 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, " ");
      i = (end < 0 ? text.length : end + 2) - 1;
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The 1-based line a JSON.parse error points at, when its message names a position. */
function errorLine(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : "";
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split("\n").length;
}

/**
 * The one warning a bad setup file or entry becomes (the others still count): the error's message
 * and, when it has one, its hint (the fix).
 */
export function setupWarning(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const hint = (error as { hint?: string }).hint;
  return hint ? `${error.message}. ${hint}` : error.message;
}

/** Anything with a name that several sources may define. */
export interface NamedDefinition {
  name: string;
  scope: SetupScope;
  /** The file that defines it (for built-ins, a label such as "built-in"). */
  source: string;
}

/**
 * The definitions that win, in the order first seen, and one warning per clash naming both files:
 * built-ins first, then the user's, then the project's; within one scope the first found wins
 * (callers list their sources in the order they prefer: ours before other vendors', nearer
 * folders before farther ones).
 */
export function resolveClashes<T extends NamedDefinition>(
  definitions: readonly T[],
  what: string,
): { kept: T[]; warnings: string[] } {
  const rank: Record<SetupScope, number> = { builtin: 0, user: 1, project: 2 };
  const ordered = definitions.map((d, i) => ({ d, i })).sort((a, b) =>
    rank[a.d.scope] - rank[b.d.scope] || a.i - b.i
  );
  const byName = new Map<string, T>();
  const warnings: string[] = [];
  for (const { d } of ordered) {
    const winner = byName.get(d.name);
    if (!winner) {
      byName.set(d.name, d);
      continue;
    }
    warnings.push(
      `The ${what} "${d.name}" of ${d.source} is not used: ${winner.source} defines the same ` +
        `name and comes first (built-ins, then your own, then the project's). Rename one of them.`,
    );
  }
  const kept = definitions.filter((d) => byName.get(d.name) === d);
  return { kept, warnings };
}
