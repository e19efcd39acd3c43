/**
 * Every place a setup file of ours or of another agent is looked for (issue 33), one table for
 * all readers, for the held-back watch, the sandbox's protected names and `debug config`.
 * Project paths are relative to each folder from the project root down to the working directory
 * (`projectFolders()`); user paths are relative to `$HOME`, except ours, which are relative to our
 * config home (`~/.openinterpreter`).
 */
import { join } from "node:path";
import { projectFolders, type SetupContext, type SetupVendor } from "./sources.ts";

/** What a location holds. */
export type SetupKind = "commands" | "agents" | "mcp" | "settings" | "instructions";

/** One place setup files are looked for. */
export interface SetupLocation {
  kind: SetupKind;
  vendor: SetupVendor;
  scope: "user" | "project";
  /** Relative to a project folder, to `$HOME`, or (ours, user scope) to our config home. */
  path: string;
  /** A folder of definition files, or one file. */
  form: "folder" | "file";
  /** For folders: the file names read (`*.md`, `*.toml`), and whether sub-folders count. */
  files?: { extensions: readonly string[]; recursive: boolean };
}

const md = { extensions: [".md"], recursive: true } as const;
const mdTop = { extensions: [".md"], recursive: false } as const;

/** The table, in the order readers prefer within one scope: ours first, then by vendor. */
// deno-fmt-ignore
export const SETUP_LOCATIONS: readonly SetupLocation[] = Object.freeze([
  // Custom slash commands.
  { kind: "commands", vendor: "ours", scope: "project", path: ".agents/commands", form: "folder", files: md },
  { kind: "commands", vendor: "ours", scope: "user", path: "commands", form: "folder", files: md },
  { kind: "commands", vendor: "claude", scope: "project", path: ".claude/commands", form: "folder", files: md },
  { kind: "commands", vendor: "claude", scope: "user", path: ".claude/commands", form: "folder", files: md },
  { kind: "commands", vendor: "gemini", scope: "project", path: ".gemini/commands", form: "folder", files: { extensions: [".toml"], recursive: true } },
  { kind: "commands", vendor: "gemini", scope: "user", path: ".gemini/commands", form: "folder", files: { extensions: [".toml"], recursive: true } },
  { kind: "commands", vendor: "qwen", scope: "project", path: ".qwen/commands", form: "folder", files: { extensions: [".md", ".toml"], recursive: true } },
  { kind: "commands", vendor: "qwen", scope: "user", path: ".qwen/commands", form: "folder", files: { extensions: [".md", ".toml"], recursive: true } },
  { kind: "commands", vendor: "codex", scope: "user", path: ".codex/prompts", form: "folder", files: mdTop },
  { kind: "commands", vendor: "opencode", scope: "project", path: ".opencode/commands", form: "folder", files: md },
  { kind: "commands", vendor: "opencode", scope: "project", path: ".opencode/command", form: "folder", files: md },
  { kind: "commands", vendor: "opencode", scope: "user", path: ".config/opencode/commands", form: "folder", files: md },
  { kind: "commands", vendor: "opencode", scope: "user", path: ".config/opencode/command", form: "folder", files: md },
  // Sub-agent definitions.
  { kind: "agents", vendor: "ours", scope: "project", path: ".agents/agents", form: "folder", files: md },
  { kind: "agents", vendor: "ours", scope: "user", path: "agents", form: "folder", files: md },
  { kind: "agents", vendor: "claude", scope: "project", path: ".claude/agents", form: "folder", files: md },
  { kind: "agents", vendor: "claude", scope: "user", path: ".claude/agents", form: "folder", files: md },
  { kind: "agents", vendor: "gemini", scope: "project", path: ".gemini/agents", form: "folder", files: mdTop },
  { kind: "agents", vendor: "gemini", scope: "user", path: ".gemini/agents", form: "folder", files: mdTop },
  { kind: "agents", vendor: "qwen", scope: "project", path: ".qwen/agents", form: "folder", files: md },
  { kind: "agents", vendor: "qwen", scope: "user", path: ".qwen/agents", form: "folder", files: md },
  { kind: "agents", vendor: "codex", scope: "project", path: ".codex/agents", form: "folder", files: { extensions: [".toml"], recursive: false } },
  { kind: "agents", vendor: "codex", scope: "user", path: ".codex/agents", form: "folder", files: { extensions: [".toml"], recursive: false } },
  { kind: "agents", vendor: "opencode", scope: "project", path: ".opencode/agents", form: "folder", files: md },
  { kind: "agents", vendor: "opencode", scope: "project", path: ".opencode/agent", form: "folder", files: md },
  { kind: "agents", vendor: "opencode", scope: "user", path: ".config/opencode/agents", form: "folder", files: md },
  { kind: "agents", vendor: "opencode", scope: "user", path: ".config/opencode/agent", form: "folder", files: md },
  // MCP servers.
  { kind: "mcp", vendor: "claude", scope: "project", path: ".mcp.json", form: "file" },
  { kind: "mcp", vendor: "claude", scope: "user", path: ".claude.json", form: "file" },
  { kind: "mcp", vendor: "gemini", scope: "project", path: ".gemini/settings.json", form: "file" },
  { kind: "mcp", vendor: "gemini", scope: "user", path: ".gemini/settings.json", form: "file" },
  { kind: "mcp", vendor: "qwen", scope: "project", path: ".qwen/settings.json", form: "file" },
  { kind: "mcp", vendor: "qwen", scope: "user", path: ".qwen/settings.json", form: "file" },
  { kind: "mcp", vendor: "opencode", scope: "project", path: "opencode.json", form: "file" },
  { kind: "mcp", vendor: "opencode", scope: "project", path: "opencode.jsonc", form: "file" },
  { kind: "mcp", vendor: "opencode", scope: "user", path: ".config/opencode/opencode.json", form: "file" },
  { kind: "mcp", vendor: "opencode", scope: "user", path: ".config/opencode/opencode.jsonc", form: "file" },
  { kind: "mcp", vendor: "cursor", scope: "project", path: ".cursor/mcp.json", form: "file" },
  { kind: "mcp", vendor: "cursor", scope: "user", path: ".cursor/mcp.json", form: "file" },
  // Hooks, permission rules, env and status lines.
  { kind: "settings", vendor: "claude", scope: "project", path: ".claude/settings.json", form: "file" },
  { kind: "settings", vendor: "claude", scope: "project", path: ".claude/settings.local.json", form: "file" },
  { kind: "settings", vendor: "claude", scope: "user", path: ".claude/settings.json", form: "file" },
  { kind: "settings", vendor: "gemini", scope: "project", path: ".gemini/settings.json", form: "file" },
  { kind: "settings", vendor: "gemini", scope: "user", path: ".gemini/settings.json", form: "file" },
  { kind: "settings", vendor: "qwen", scope: "project", path: ".qwen/settings.json", form: "file" },
  { kind: "settings", vendor: "qwen", scope: "user", path: ".qwen/settings.json", form: "file" },
  // Instruction files other than AGENTS.md (lib/workspace/instructions.ts reads them).
  { kind: "instructions", vendor: "claude", scope: "project", path: "CLAUDE.md", form: "file" },
  { kind: "instructions", vendor: "claude", scope: "project", path: ".claude/CLAUDE.md", form: "file" },
  { kind: "instructions", vendor: "claude", scope: "project", path: "CLAUDE.local.md", form: "file" },
  { kind: "instructions", vendor: "claude", scope: "user", path: ".claude/CLAUDE.md", form: "file" },
  { kind: "instructions", vendor: "gemini", scope: "project", path: "GEMINI.md", form: "file" },
  { kind: "instructions", vendor: "gemini", scope: "user", path: ".gemini/GEMINI.md", form: "file" },
  { kind: "instructions", vendor: "qwen", scope: "project", path: "QWEN.md", form: "file" },
  { kind: "instructions", vendor: "qwen", scope: "user", path: ".qwen/QWEN.md", form: "file" },
] as SetupLocation[]);

/** One location resolved to an absolute path. */
export interface FoundLocation extends SetupLocation {
  /** The absolute path. */
  absolute: string;
  /** For a project location, the project folder it is under. */
  folder?: string;
}

/** Most folder levels below a commands or agents folder that are walked. */
const MAX_DEPTH = 8;

/**
 * The definition files of folder location `location` (none when it is missing), sorted, at most
 * `maxFiles`: those with one of its extensions, in sub-folders too where the vendor has them,
 * dotfiles left out. A link is followed (a dotfiles manager links definitions in);
 * `readSetupFile()` then checks that a project's file stays inside the project.
 */
export async function definitionFiles(
  location: FoundLocation,
  maxFiles: number,
): Promise<string[]> {
  const { extensions, recursive } = location.files ?? { extensions: [".md"], recursive: false };
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (out.length >= maxFiles || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      const kind = entry.isSymlink ? await Deno.stat(path).catch(() => undefined) : entry;
      if (kind?.isDirectory && recursive && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (kind?.isFile && extensions.some((e) => entry.name.toLowerCase().endsWith(e))) {
        out.push(path);
      }
    }
  };
  await walk(location.absolute, 0);
  return out;
}

/**
 * The kinds read in a project that is not trusted: what can run nothing (commands' text, whose
 * shell pre-execution and `allowed-tools` still wait for trust, sub-agents, which never get more
 * than their session has, and instruction files, as AGENTS.md). MCP and settings files (hooks,
 * env, status lines, allow rules) are read only in a trusted project; their deny and ask rules
 * apply in any (lib/setups/permissions reads them itself).
 */
export const READ_WHEN_UNTRUSTED: ReadonlySet<SetupKind> = new Set([
  "commands",
  "agents",
  "instructions",
]);

/**
 * The locations of `kind` as absolute paths: the user's (when `ctx.userHome` is known; ours from
 * our config home), then the project's from the working directory up to the root (nearest first),
 * unless the project is not trusted and the kind is not in `READ_WHEN_UNTRUSTED`. Whether each
 * exists is for the reader to find out.
 */
export function locationsOf(kind: SetupKind, ctx: SetupContext): FoundLocation[] {
  const out: FoundLocation[] = [];
  for (const location of SETUP_LOCATIONS) {
    if (location.kind !== kind || location.scope !== "user") continue;
    const base = location.vendor === "ours" ? ctx.home : ctx.userHome;
    if (base !== undefined) out.push({ ...location, absolute: join(base, location.path) });
  }
  if (!ctx.projectTrusted && !READ_WHEN_UNTRUSTED.has(kind)) return out;
  for (const folder of projectFolders(ctx).reverse()) {
    for (const location of SETUP_LOCATIONS) {
      if (location.kind !== kind || location.scope !== "project") continue;
      out.push({ ...location, absolute: join(folder, location.path), folder });
    }
  }
  return out;
}

/**
 * The top-level names in a project folder that hold runnable definitions of other agents (their
 * settings, MCP files, command and agent folders): kept read-only to commands like `.git` where
 * they exist (the sandbox's copy, `sandbox/placeholders.ts`, must match: a test checks), and
 * watched for changes made during a session (`lib/workspace/held_back.ts`, checked alike).
 */
export const SETUP_PROTECTED_NAMES: readonly string[] = Object.freeze([
  ".claude",
  ".gemini",
  ".qwen",
  ".opencode",
  ".cursor",
  ".codex",
  ".mcp.json",
  "opencode.json",
  "opencode.jsonc",
]);
