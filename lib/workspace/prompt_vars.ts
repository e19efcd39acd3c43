/**
 * The values the system prompt templates use: the basic ones every harness gets (`promptVars()`:
 * directory, date, git status, AGENTS.md, skills), and the extra ones (git snapshot fields,
 * CLAUDE.md, OS version, long dates, a folder tree), computed only when a harness's templates
 * use them (`extraVariables()`): each costs git runs or disk reads at start-up.
 */
import { dirname, join } from "node:path";
import type { Harness, PromptVars } from "../harness/types.ts";
import { PROMPT_VARIABLES } from "../harness/prompt.ts";
import { readTextPrefix } from "../input_file.ts";
import { discoverSkills, skillsListing } from "../tools/skills.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import type { GitRunner } from "./safe_git.ts";
import { findGitRoot } from "./git_root.ts";

/** Collects the values the system prompt templates can use. */
export async function promptVars(
  cwd: string,
  opts: {
    model: string;
    home: string;
    sandbox: string;
    env: Record<string, string | undefined>;
    /** `harness_guidance`: false leaves the harness's guidance out. */
    guidance?: boolean;
    git: GitRunner;
    /** True for a file that changed while an earlier session ran and is not loaded yet. */
    isHeldBack?: (path: string) => boolean;
  },
): Promise<PromptVars> {
  const isHeldBack = opts.isHeldBack ?? (() => false);
  // The three inputs read the disk and run git independently, so they are gathered together.
  const [gitStatusText, agentsText, skills] = await Promise.all([
    gitStatus(cwd, opts.git, isHeldBack),
    agentsMd(cwd, opts.home),
    // Start-up reads, before any tool runs: this process reads as the helper would.
    discoverSkills(cwd, opts.home, { userHome: opts.env.HOME, fs: inProcessFs, isHeldBack }),
  ]);
  return {
    ...(opts.guidance === false ? { guidance: "" } : {}),
    cwd,
    date: currentDate(opts.env),
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    shell: opts.env.SHELL ?? "/bin/bash",
    model: opts.model,
    gitStatus: gitStatusText,
    agentsMd: agentsText,
    sandbox: opts.sandbox,
    skills: skillsListing(skills),
  };
}

/** Today's date, or the fixed `OPENINTERPRETER_TEST_TIME` used by tests. */
function currentDate(env: Record<string, string | undefined>): string {
  const fixed = env.OPENINTERPRETER_TEST_TIME;
  return fixed ? fixed.slice(0, 10) : new Date().toISOString().slice(0, 10);
}

/**
 * `git status --short --branch`, run so that repository config cannot execute anything, and not
 * at all in a repository that was created, or whose config changed, while a session ran.
 */
async function gitStatus(
  cwd: string,
  git: GitRunner,
  isHeldBack: (path: string) => boolean,
): Promise<string> {
  const root = await findGitRoot(cwd);
  if (!root) return "(not a git repository)";
  if (isHeldBack(join(root, ".git")) || isHeldBack(join(root, ".git", "config"))) {
    return "(git status not run: the repository changed while an earlier session ran)";
  }
  const out = await git.run(["status", "--short", "--branch"], cwd);
  if (out.skipped) return `(git status not run: ${out.skipped})`;
  if (!out.ok) return "(not a git repository)";
  const lines = out.stdout.trim().split("\n");
  return lines.length > 40
    ? [...lines.slice(0, 40), `… ${lines.length - 40} more`].join("\n")
    : lines.join("\n");
}

const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** The user's global AGENTS.md followed by the project's, each trimmed and capped. */
async function agentsMd(cwd: string, home: string): Promise<string> {
  const root = (await findGitRoot(cwd)) ?? cwd;
  const candidates = [join(home, "AGENTS.md")];
  for (let dir = cwd;; dir = dirname(dir)) {
    candidates.splice(1, 0, join(dir, "AGENTS.md"));
    if (dir === root || dirname(dir) === dir) break;
  }
  const parts: string[] = [];
  for (const file of candidates) {
    const text = await readTextPrefix(file, AGENTS_MD_MAX_BYTES);
    if (text.trim()) parts.push(text.trim().slice(0, AGENTS_MD_MAX_BYTES));
  }
  return parts.join("\n\n");
}

type Extra = Partial<PromptVars>;

/** The prompt variable fields the harness's system prompt and context templates use. */
export function usedVariables(h: Harness): Set<keyof PromptVars> {
  const used = new Set<keyof PromptVars>();
  for (const entry of h.context) {
    for (const m of entry.text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) {
      const key = PROMPT_VARIABLES[m[1]];
      if (key) used.add(key);
    }
    for (const name of entry.when ?? []) used.add(name);
  }
  return used;
}

/** The extra variables `used` names, gathered together. */
export async function extraVariables(
  cwd: string,
  used: Set<keyof PromptVars>,
  opts: {
    env: Record<string, string | undefined>;
    git: GitRunner;
    /** True for a file that changed while an earlier session ran and is not loaded yet. */
    isHeldBack: (path: string) => boolean;
  },
): Promise<Extra> {
  const out: Extra = {};
  const now = testTime(opts.env) ?? new Date();
  if (used.has("dateLong")) out.dateLong = longDate(now);
  if (used.has("datetime")) out.datetime = now.toISOString();
  if (used.has("timezone")) out.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (used.has("osVersion")) out.osVersion = osVersion();
  const tasks: Promise<void>[] = [];
  if (used.has("folderTree")) tasks.push(folderTree(cwd).then((t) => void (out.folderTree = t)));
  if (used.has("claudeMd")) {
    tasks.push(claudeMd(cwd, opts.env.HOME).then((t) => void (out.claudeMd = t)));
  }
  const gitKeys = ["isGit", "gitBranch", "gitMainBranch", "gitUser", "gitStatusShort"] as const;
  if ([...gitKeys, "gitRecentCommits" as const].some((k) => used.has(k))) {
    tasks.push(gitSnapshot(cwd, opts.git, opts.isHeldBack).then((g) => void Object.assign(out, g)));
  }
  await Promise.all(tasks);
  return out;
}

function testTime(env: Record<string, string | undefined>): Date | undefined {
  const fixed = env.OPENINTERPRETER_TEST_TIME;
  if (!fixed) return undefined;
  const date = new Date(fixed.length <= 10 ? `${fixed}T00:00:00Z` : `${fixed.replace(" ", "T")}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function longDate(date: Date): string {
  return date.toLocaleDateString("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
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

const CLAUDE_MD_MAX_BYTES = 32 * 1024;

/** `~/.claude/CLAUDE.md`, then CLAUDE.md and `.claude/CLAUDE.md` from the project root down. */
async function claudeMd(cwd: string, userHome: string | undefined): Promise<string> {
  const root = (await findGitRoot(cwd)) ?? cwd;
  const dirs: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  const files = [
    ...(userHome ? [join(userHome, ".claude", "CLAUDE.md")] : []),
    ...dirs.flatMap((d) => [join(d, "CLAUDE.md"), join(d, ".claude", "CLAUDE.md")]),
  ];
  const parts: string[] = [];
  for (const file of files) {
    const text = (await readTextPrefix(file, CLAUDE_MD_MAX_BYTES)).trim();
    if (text) parts.push(`Instructions in ${file}:\n\n${text.slice(0, CLAUDE_MD_MAX_BYTES)}`);
  }
  return parts.join("\n\n");
}

/** Branch, main branch, user, short status and recent commits, through the safe git runner. */
async function gitSnapshot(
  cwd: string,
  git: GitRunner,
  isHeldBack: (path: string) => boolean,
): Promise<Extra> {
  const root = await findGitRoot(cwd);
  if (!root) return { isGit: "No" };
  // A repository whose config changed while a session ran is not touched (see held_back.ts).
  if (isHeldBack(join(root, ".git")) || isHeldBack(join(root, ".git", "config"))) {
    const note = "(git not run: the repository changed while an earlier session ran)";
    return { isGit: "Yes", gitBranch: note, gitStatusShort: note };
  }
  const out = async (args: string[]) => {
    const r = await git.run(args, cwd);
    return r.ok ? r.stdout.trim() : "";
  };
  const [branch, user, status, commits, originHead, hasMain] = await Promise.all([
    out(["branch", "--show-current"]),
    out(["config", "user.name"]),
    out(["status", "--short"]),
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
