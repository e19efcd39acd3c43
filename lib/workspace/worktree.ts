/**
 * Git worktrees for a session: one module that creates, finds and removes them, for the
 * worktree tools and for any flag that starts a session in one.
 *
 * Where: every worktree of a repository lives at `<home>/worktrees/<repo>-<digest>/<name>`
 * (`worktreePath()`), outside the repository, so that the protected `.openinterpreter` and `.git`
 * folders of the repository never sit over it. Its branch is `worktree-<name>` (`/` as `-`).
 * Names are checked (`checkWorktreeName()`): segments of letters, digits, `.`, `_` and `-`,
 * joined by `/`, at most 64 characters, none `.` or `..`.
 *
 * Git runs through the safe git runner (safe_git.ts: repository config cannot run programs) in
 * a sandbox that may write only what `git worktree add` and `remove` write: the worktree's
 * folder, the repository's `.git/worktrees`, `objects`, `refs` and `logs`; never `config`,
 * `hooks` or `info`. `worktreeWritableRoots()` gives the same list, narrowed to this worktree's
 * own admin folder, for the session's sandbox while it works in the worktree.
 *
 * Trust and held-back state belong to the main repository: `mainRepositoryOf()` finds it from
 * a worktree (through git's `commondir`, read as a file, running nothing).
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { ToolError } from "../errors.ts";
import { openGitRunner } from "./safe_git.ts";

/** The longest worktree name, as Claude Code allows. */
const MAX_NAME = 64;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** One worktree of a repository. */
export interface Worktree {
  name: string;
  /** Absolute folder of the worktree. */
  path: string;
  branch: string;
  /** The main repository's root (its work tree). */
  repoRoot: string;
  /** The repository's git folder, shared by every worktree (`.git`). */
  commonDir: string;
  /** This worktree's admin folder, `<commonDir>/worktrees/<id>`. */
  adminDir: string;
  /** The commit it started from: commits after it are the worktree's own. */
  base: string;
}

/** Throws a ToolError naming the rule `name` breaks; returns it when it is a valid name. */
export function checkWorktreeName(name: string): string {
  const segments = name.split("/");
  const bad = name.length === 0 || name.length > MAX_NAME ||
    segments.some((s) => !SEGMENT.test(s) || s === "." || s === "..");
  if (!bad) return name;
  throw new ToolError(
    `"${name}" is not a valid worktree name`,
    `Use up to ${MAX_NAME} characters: letters, digits, ".", "_" and "-", in segments joined ` +
      `by "/" (none of them "." or ".."), e.g. "fix-login"`,
  );
}

/** The folder holding every worktree of the repository at `repoRoot`. */
export async function worktreesFolder(home: string, repoRoot: string): Promise<string> {
  const bytes = new TextEncoder().encode(resolve(repoRoot));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return join(home, "worktrees", `${basename(repoRoot) || "repo"}-${hex}`);
}

/** Where worktree `name` of `repoRoot` lives (see the module comment). */
export async function worktreePath(home: string, repoRoot: string, name: string): Promise<string> {
  return join(await worktreesFolder(home, repoRoot), checkWorktreeName(name));
}

/** The branch a new worktree `name` gets. */
export function worktreeBranch(name: string): string {
  return `worktree-${name.replaceAll("/", "-")}`;
}

/** A name for a worktree the caller did not name. */
export function randomWorktreeName(): string {
  return `wt-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * The git folder `dir`'s `.git` points at and the shared folder (`commondir`) behind it, read
 * from files; undefined when `dir` holds no `.git`.
 */
async function gitDirsOf(dir: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  const dotGit = join(dir, ".git");
  const info = await Deno.lstat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory) return { gitDir: dotGit, commonDir: dotGit };
  const text = await Deno.readTextFile(dotGit).catch(() => "");
  const pointer = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
  if (!pointer) return undefined;
  const gitDir = resolve(dir, pointer);
  const common = (await Deno.readTextFile(join(gitDir, "commondir")).catch(() => "")).trim();
  return { gitDir, commonDir: common ? resolve(gitDir, common) : gitDir };
}

/**
 * The root of the main repository `dir` belongs to when `dir` is the top of a linked worktree;
 * `dir` itself for a main repository; undefined outside a repository's top folder.
 */
export async function mainRepositoryOf(dir: string): Promise<string | undefined> {
  const dirs = await gitDirsOf(dir);
  if (!dirs) return undefined;
  if (dirs.gitDir === dirs.commonDir) return dir;
  return basename(dirs.commonDir) === ".git" ? dirname(dirs.commonDir) : undefined;
}

/**
 * What the session's sandbox may write while it works in `wt`: the worktree, its admin folder and
 * the repository's `objects`, `refs` and `logs` (commits and branches); then `extra`.
 */
export function worktreeWritableRoots(wt: Worktree, extra: readonly string[] = []): string[] {
  const shared = ["objects", "refs", "logs"].map((part) => join(wt.commonDir, part));
  return [wt.path, wt.adminDir, ...shared, ...extra];
}

/** The session facts the git commands of this module run with. */
export interface WorktreeGit {
  /** The session's environment (the runner strips what would point git elsewhere). */
  env: Record<string, string>;
  /** The interpreter home, under which worktrees live. */
  home: string;
}

/**
 * Runs `git args` in `cwd` through the safe runner, in a sandbox that writes only `writable`
 * (and reads `readable` under /tmp as well).
 */
async function git(
  g: WorktreeGit,
  args: string[],
  cwd: string,
  writable: string[],
  readable: string[] = [],
): Promise<string> {
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: writable,
    networkAccess: false,
    // A repository under /tmp stays visible through the sandbox's private /tmp.
    readablePaths: [cwd, ...readable],
  });
  const out = await (async () => {
    await using runner = await openGitRunner({ env: g.env, sandbox });
    return await runner.run(args, cwd);
  })().finally(() => sandbox.close());
  if (out.ok) return out.stdout;
  throw new ToolError(
    `git ${args[0]} ${args[1] ?? ""} failed: ${out.skipped ?? out.error ?? "no reason given"}`,
    "Check the repository with git status; the worktree was left as it was",
  );
}

/** The repository `cwd` is in: its root and git folders, or a ToolError. */
export async function repositoryAt(
  cwd: string,
): Promise<{ repoRoot: string; commonDir: string }> {
  for (let dir = resolve(cwd);; dir = dirname(dir)) {
    const dirs = await gitDirsOf(dir);
    if (dirs) {
      const repoRoot = await mainRepositoryOf(dir);
      if (repoRoot) return { repoRoot, commonDir: dirs.commonDir };
      break;
    }
    if (dirname(dir) === dir) break;
  }
  throw new ToolError(
    `${cwd} is not inside a git repository`,
    "Worktrees need a git repository: run git init and make a first commit",
  );
}

/** Creates worktree `name` of the repository at `repoRoot`, on a new branch from HEAD. */
export async function createWorktree(
  g: WorktreeGit,
  repo: { repoRoot: string; commonDir: string },
  name: string,
): Promise<Worktree> {
  const path = await worktreePath(g.home, repo.repoRoot, name);
  if (await Deno.lstat(path).catch(() => undefined)) {
    throw new ToolError(
      `A worktree named "${name}" already exists at ${path}`,
      "Choose another name, or enter the existing one by its path",
    );
  }
  const branch = worktreeBranch(name);
  const admin = join(repo.commonDir, "worktrees");
  const shared = ["objects", "refs", "logs"].map((part) => join(repo.commonDir, part));
  for (const dir of [dirname(path), admin, ...shared]) await Deno.mkdir(dir, { recursive: true });
  const base = (await git(g, ["rev-parse", "HEAD"], repo.repoRoot, [admin])).trim();
  await git(
    g,
    ["worktree", "add", "-b", branch, path, base],
    repo.repoRoot,
    [dirname(path), admin, ...shared],
  );
  return await openWorktree({ name, path, branch, base, ...repo });
}

/** The folders `git worktree list` names for the repository at `repoRoot`, main one included. */
export async function listedWorktrees(g: WorktreeGit, repoRoot: string): Promise<string[]> {
  const out = await git(g, ["worktree", "list", "--porcelain"], repoRoot, []);
  return out.split("\n").flatMap((line) => line.startsWith("worktree ") ? [line.slice(9)] : []);
}

/** A worktree already on disk at `path` (its admin folder read from its `.git` file). */
export async function openWorktree(
  wt: Omit<Worktree, "adminDir">,
): Promise<Worktree> {
  const dirs = await gitDirsOf(wt.path);
  if (!dirs || dirs.gitDir === dirs.commonDir || !isAbsolute(wt.path)) {
    throw new ToolError(
      `${wt.path} is not a linked git worktree`,
      "Give a path from git worktree list",
    );
  }
  return { ...wt, adminDir: dirs.gitDir };
}

/** Uncommitted files and commits not on the branch the worktree started from. */
export async function worktreeChanges(
  g: WorktreeGit,
  wt: Worktree,
): Promise<{ files: string[]; commits: number }> {
  const run = (args: string[]) => git(g, args, wt.path, [wt.adminDir], [wt.commonDir]);
  const status = await run(["status", "--porcelain"]);
  const files = status.split("\n").filter((line) => line.trim()).map((line) => line.slice(3));
  const count = await run(["rev-list", "--count", `${wt.base}..HEAD`]);
  return { files, commits: Number(count.trim()) || 0 };
}

/** Removes the worktree and its branch (git refuses a dirty one unless `force`). */
export async function removeWorktree(g: WorktreeGit, wt: Worktree, force: boolean): Promise<void> {
  const admin = join(wt.commonDir, "worktrees");
  const writable = [dirname(wt.path), admin];
  const remove = ["worktree", "remove", ...(force ? ["--force", "--force"] : []), wt.path];
  await git(g, remove, wt.repoRoot, writable);
  // `git branch -D` would rewrite .git/config (the branch's section) and `update-ref -d` lock
  // .git/packed-refs, both read-only; the branch is a loose ref of a checked name, removed as a
  // file (a link there goes, not what it points to).
  for (const part of ["refs", "logs/refs"]) {
    await Deno.remove(join(wt.commonDir, part, "heads", wt.branch)).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}
