/**
 * The values the system prompt templates use, gathered in one place (`gatherPromptVars()`): the
 * cheap ones always (directory, date, platform, shell, model), the others (git status and
 * snapshot, AGENTS.md, CLAUDE.md, skills, OS version, long dates, a folder tree) only when the
 * harness's templates use them, since each costs git runs or disk reads at start-up.
 */
import { dirname, join, sep } from "node:path";
import type { Harness, PromptVars } from "../harness/types.ts";
import { PROMPT_VARIABLES } from "../harness/prompt.ts";
import { availableSkills, type SkillInfo, skillsListing } from "../tools/skills.ts";
import {
  type FoundInstructions,
  type InstructionFile,
  type InstructionKind,
  type InstructionOptions,
  instructionsText,
} from "./instructions.ts";
import type { GitRunner } from "./safe_git.ts";
import { startupStatus } from "./_git_index.ts";
import { freshTerminalScreen } from "./terminal_screen.ts";
import { projectTree } from "./_project_tree.ts";
import { fixedClock, localTimeZone, longDate, shortDate } from "./_dates.ts";

/** What the prompt variables are read from: the workspace (`Workspace` has all of it). */
export interface PromptSources {
  cwd: string;
  env: Record<string, string | undefined>;
  git: GitRunner;
  /** True for a file that changed while an earlier session ran and is not loaded yet. */
  isHeldBack(path: string): boolean;
  gitRoot(): Promise<string | undefined>;
  instructions(kind: InstructionKind, opts?: InstructionOptions): Promise<FoundInstructions>;
  skills(): Promise<SkillInfo[]>;
}

/** The session's own values among the prompt variables. */
export interface SessionPromptValues {
  model: string;
  /** `harness_guidance`: false leaves the harness's guidance out. */
  guidance?: boolean;
  /** How AGENTS.md files are found (`project_root_markers`, `project_doc_*`). */
  instructions?: InstructionOptions;
  /** Told when instruction files were cut or left out (one line). */
  warn?(message: string): void;
}

/** A variable that costs git runs or disk reads: the fields it fills, and how they are read. */
interface CostlyVariable {
  fills: ReadonlyArray<keyof PromptVars>;
  read(src: PromptSources, ctx: ReadContext): Promise<Partial<PromptVars>>;
}

/** What a costly read may need besides the sources. */
interface ReadContext {
  harness: Harness;
  used: ReadonlySet<keyof PromptVars>;
  session: SessionPromptValues;
}

const COSTLY: readonly CostlyVariable[] = [
  { fills: ["gitStatus"], read: async (src) => ({ gitStatus: await gitStatus(src) }) },
  {
    fills: ["isGit", "gitBranch", "gitMainBranch", "gitUser", "gitStatusShort", "gitRecentCommits"],
    read: gitSnapshot,
  },
  { fills: ["agentsMd", "claudeMd", "geminiMd"], read: instructionVars },
  {
    fills: ["skills", "availableSkills"],
    read: async (src) => {
      const skills = await src.skills();
      return { skills: skillsListing(skills), availableSkills: availableSkills(skills) };
    },
  },
  { fills: ["folderTree"], read: async (src) => ({ folderTree: await folderTree(src.cwd) }) },
  { fills: ["projectTree"], read: async (src) => ({ projectTree: await projectTree(src.cwd) }) },
  {
    fills: ["workspaceRoot"],
    read: async (src) => ({ workspaceRoot: (await src.gitRoot()) ?? src.cwd }),
  },
];

/**
 * The prompt variables `harness`'s templates use (`usedVariables()`), with the session's values.
 * `sandbox` is left empty: the session adds its `sandboxFacts`. The costly ones are read together.
 */
export async function gatherPromptVars(
  src: PromptSources,
  harness: Harness,
  session: SessionPromptValues,
): Promise<PromptVars> {
  const used = usedVariables(harness);
  // One instant for every date and time variable: the fixed test clock, or now.
  const now = fixedClock(src.env) ?? new Date();
  const vars: PromptVars = {
    ...(session.guidance === false ? { guidance: "" } : {}),
    cwd: src.cwd,
    date: now.toISOString().slice(0, 10),
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    shell: src.env.SHELL ?? "/bin/bash",
    model: session.model,
    gitStatus: "",
    agentsMd: "",
    sandbox: "",
  };
  if (used.has("dateLong")) vars.dateLong = longDate(now);
  if (used.has("dateShort")) vars.dateShort = shortDate(now);
  if (used.has("datetime")) vars.datetime = now.toISOString();
  if (used.has("timezone")) vars.timezone = localTimeZone(src.env);
  if (used.has("osVersion")) vars.osVersion = osVersion();
  if (used.has("terminalScreen")) vars.terminalScreen = freshTerminalScreen(src.cwd, src.env);
  const reads = COSTLY.filter(({ fills }) => fills.some((key) => used.has(key)))
    .map(({ read }) => read(src, { harness, used, session }));
  for (const got of await Promise.all(reads)) Object.assign(vars, got);
  return vars;
}

/**
 * The prompt variable fields a harness's templates use: its system prompt and context entries
 * (their `{{variables}}` and `when` conditions) and its reviewer prompt.
 */
function usedVariables(h: Harness): Set<keyof PromptVars> {
  const used = new Set<keyof PromptVars>();
  const scan = (text: string) => {
    for (const m of text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) {
      const key = PROMPT_VARIABLES[m[1]];
      if (key) used.add(key);
    }
  };
  for (const entry of h.context) {
    scan(entry.text);
    for (const name of entry.when ?? []) used.add(name);
  }
  scan(h.texts.reviewer);
  return used;
}

/**
 * `{{agents_md}}`, `{{claude_md}}` and `{{gemini_md}}`, framed as the harness's
 * `[project_instructions]` says, with its `vendor_files` (QWEN.md) read into `{{agents_md}}`. An
 * AGENTS.md holding the same text as a CLAUDE.md or GEMINI.md (one a link to the other) is given
 * once.
 */
async function instructionVars(src: PromptSources, ctx: ReadContext): Promise<Partial<PromptVars>> {
  const read = (kind: InstructionKind, used: boolean): Promise<FoundInstructions> =>
    used
      ? src.instructions(kind, ctx.session.instructions)
      : Promise.resolve({ files: [], warnings: [] });
  const framing = ctx.harness.projectInstructions;
  const vendor = (framing?.vendorFiles ?? []).map((kind) => read(kind, ctx.used.has("agentsMd")));
  const [claude, agents, gemini, ...vendorFound] = await Promise.all([
    read("CLAUDE.md", ctx.used.has("claudeMd")),
    read("AGENTS.md", ctx.used.has("agentsMd")),
    read("GEMINI.md", ctx.used.has("geminiMd")),
    ...vendor,
  ]);
  const found = [claude, agents, gemini, ...vendorFound];
  for (const warning of found.flatMap((f) => f.warnings)) ctx.session.warn?.(warning);
  const seen = new Set([...claude.files, ...gemini.files].map((f) => f.text));
  const opts = { cwd: src.cwd, framing };
  const agentsFiles = withVendorFiles(vendorFound.flatMap((f) => f.files), agents.files);
  return {
    agentsMd: instructionsText(agentsFiles.filter((f) => !seen.has(f.text)), opts),
    claudeMd: instructionsText(claude.files, opts),
    geminiMd: instructionsText(gemini.files, opts),
  };
}

/**
 * A vendor's files (QWEN.md) and the AGENTS.md files in one reading order: the user's own files
 * first, then folder by folder from the root down, the vendor's file before the folder's AGENTS.md.
 */
function withVendorFiles(
  vendor: readonly InstructionFile[],
  agents: readonly InstructionFile[],
): InstructionFile[] {
  if (vendor.length === 0) return [...agents];
  const depth = (f: InstructionFile) => f.global ? -1 : dirname(f.path).split(sep).length;
  // A stable sort keeps the vendor's file first within one folder.
  return [...vendor, ...agents].sort((a, b) => depth(a) - depth(b));
}

/** True when the repository at `root` appeared or changed its config while a session ran. */
function repoHeldBack(src: PromptSources, root: string): boolean {
  return src.isHeldBack(join(root, ".git")) || src.isHeldBack(join(root, ".git", "config"));
}

/**
 * `git status --short --branch`, run so that repository config cannot execute anything, and not
 * at all in a repository that was created, or whose config changed, while a session ran.
 */
async function gitStatus(src: PromptSources): Promise<string> {
  const root = await src.gitRoot();
  if (!root) return "(not a git repository)";
  if (repoHeldBack(src, root)) {
    return "(git status not run: the repository changed while an earlier session ran)";
  }
  const out = await startupStatus(src.git, root, src.cwd, ["status", "--short", "--branch"]);
  if (out.skipped) return `(git status not run: ${out.skipped})`;
  if (!out.ok) return out.error ? `(git status failed: ${out.error})` : "(not a git repository)";
  const lines = out.stdout.trim().split("\n");
  return lines.length > 40
    ? [...lines.slice(0, 40), `… ${lines.length - 40} more`].join("\n")
    : lines.join("\n");
}

function osVersion(): string {
  const os = { linux: "Linux", darwin: "Darwin", windows: "Windows" }[Deno.build.os as string] ??
    Deno.build.os;
  try {
    return `${os} ${Deno.osRelease()}`;
  } catch {
    return os;
  }
}

const TREE_ENTRIES = 20;

/** `<cwd>/` then `├───name` lines: folders first (suffixed `/`), hidden entries left out. */
async function folderTree(cwd: string): Promise<string> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(cwd)) {
      if (!entry.name.startsWith(".")) entries.push(entry);
    }
  } catch {
    return `${cwd}/`;
  }
  entries.sort((a, b) =>
    Number(b.isDirectory) - Number(a.isDirectory) ||
    a.name.localeCompare(b.name, "en", { sensitivity: "base" })
  );
  const shown = entries.slice(0, TREE_ENTRIES);
  const lines = shown.map((e, i) => {
    const last = i === shown.length - 1 && entries.length <= TREE_ENTRIES;
    return `${last ? "└───" : "├───"}${e.name}${e.isDirectory ? "/" : ""}`;
  });
  if (entries.length > TREE_ENTRIES) lines.push(`└───… ${entries.length - TREE_ENTRIES} more`);
  return [`${cwd}/`, ...lines].join("\n");
}

/** Branch, main branch, user, short status and recent commits, through the safe git runner. */
async function gitSnapshot(src: PromptSources): Promise<Partial<PromptVars>> {
  const root = await src.gitRoot();
  if (!root) return { isGit: "No" };
  // A repository whose config changed while a session ran is not touched (see held_back.ts).
  if (repoHeldBack(src, root)) {
    const note = "(git not run: the repository changed while an earlier session ran)";
    return { isGit: "Yes", gitBranch: note, gitStatusShort: note };
  }
  const out = async (args: string[]) => {
    const r = await src.git.run(args, src.cwd);
    return r.ok ? r.stdout.trim() : "";
  };
  const [branch, user, status, commits, originHead, hasMain] = await Promise.all([
    out(["branch", "--show-current"]),
    out(["config", "user.name"]),
    startupStatus(src.git, root, src.cwd, ["status", "--short"]).then((r) =>
      r.skipped ? `(git status not run: ${r.skipped})` : r.ok ? r.stdout.trim() : ""
    ),
    out(["log", "--oneline", "-n", "5"]),
    out(["symbolic-ref", "--short", "refs/remotes/origin/HEAD"]),
    out(["rev-parse", "--verify", "--quiet", "refs/heads/main"]),
  ]);
  const main = originHead.replace(/^origin\//, "") || (hasMain ? "main" : "master");
  return {
    isGit: "Yes",
    gitBranch: branch || "(detached HEAD)",
    gitMainBranch: main,
    gitUser: user,
    gitStatusShort: status || "(clean)",
    gitRecentCommits: commits || "(no commits yet)",
  };
}
