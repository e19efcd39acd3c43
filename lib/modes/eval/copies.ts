/**
 * The isolated copy each eval run works in: a git worktree of the repository at HEAD (with the
 * uncommitted changes on `--with-changes`), or a plain copy of a folder outside git. The copy's
 * starting tree is kept as a git tree id, so the run's diff is what the agent changed.
 */
import { dirname, join, relative } from "node:path";
import { UserError } from "../../errors.ts";
import { runCommand } from "./_run.ts";

/** What the copies are made from. */
export interface CopySource {
  /** The repository root (git) or the folder (plain). */
  root: string;
  /** Where the user ran eval, relative to `root`: each run works in the same place of its copy. */
  subdir: string;
  git: boolean;
  withChanges: boolean;
}

/** A made copy. */
export interface Copy {
  dir: string;
  /** The run's working directory inside the copy. */
  workdir: string;
  /** The starting tree (git only), for the diff. */
  baseTree?: string;
}

/** The run's changes: a patch and its size. */
export interface CopyDiff {
  patch: string;
  files: number;
  added: number;
  deleted: number;
}

/** Finds what to copy for a run started in `cwd`. */
export async function copySource(cwd: string, withChanges: boolean): Promise<CopySource> {
  const top = await git(["rev-parse", "--show-toplevel"], cwd).catch(() => undefined);
  if (top === undefined) {
    if (withChanges) {
      throw new UserError(`"${cwd}" is not in a git repository: --with-changes has no meaning`, {
        hint: "Leave out --with-changes: a folder outside git is copied as it is",
      });
    }
    return { root: cwd, subdir: "", git: false, withChanges };
  }
  const root = top.trim();
  const head = await git(["rev-parse", "--verify", "HEAD"], root).catch(() => undefined);
  if (head === undefined) {
    throw new UserError(`The repository at "${root}" has no commit yet`, {
      hint: "Commit the files the task needs: each run starts from a worktree at HEAD",
    });
  }
  return { root, subdir: relative(root, await Deno.realPath(cwd)), git: true, withChanges };
}

/** Whether the repository has changes a copy at HEAD would not hold (tracked or untracked). */
export async function hasUncommittedChanges(source: CopySource): Promise<boolean> {
  if (!source.git || source.withChanges) return false;
  const status = await git(["status", "--porcelain", "--untracked-files=normal"], source.root)
    .catch(() => "");
  return status.trim() !== "";
}

/**
 * Makes a copy at `dir` (which must not exist). Worktree additions of one repository must not
 * run at once (git locks its worktree list), so callers pass `lock` to serialize them.
 */
export async function makeCopy(
  source: CopySource,
  dir: string,
  lock: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<Copy> {
  const workdir = join(dir, source.subdir);
  if (!source.git) {
    await copyTree(source.root, dir);
    return { dir, workdir };
  }
  await lock(() => git(["worktree", "add", "--detach", "--quiet", dir, "HEAD"], source.root));
  if (source.withChanges) await carryChanges(source.root, dir);
  await git(["add", "-A"], dir);
  const baseTree = (await git(["write-tree"], dir)).trim();
  await git(["reset", "-q"], dir);
  return { dir, workdir, baseTree };
}

/** The agent's changes in `copy`, or undefined when git cannot tell them. */
export async function diffOf(copy: Copy): Promise<CopyDiff | undefined> {
  if (copy.baseTree === undefined) return undefined;
  try {
    await git(["add", "-A"], copy.dir);
    const patch = await git(["diff", "--cached", "--binary", copy.baseTree], copy.dir);
    const numstat = await git(["diff", "--cached", "--numstat", copy.baseTree], copy.dir);
    await git(["reset", "-q"], copy.dir);
    let [files, added, deleted] = [0, 0, 0];
    for (const line of numstat.split("\n").filter(Boolean)) {
      const [a, d] = line.split("\t");
      files++;
      added += Number(a) || 0;
      deleted += Number(d) || 0;
    }
    return { patch, files, added, deleted };
  } catch {
    return undefined;
  }
}

/** Removes a copy: a worktree through git (so the repository forgets it), else the folder. */
export async function removeCopy(
  source: CopySource,
  copy: { dir: string },
  lock: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<void> {
  if (source.git) {
    await lock(() => git(["worktree", "remove", "--force", copy.dir], source.root)).catch(() => {});
  }
  await Deno.remove(copy.dir, { recursive: true }).catch(() => {});
  if (source.git) await lock(() => git(["worktree", "prune"], source.root)).catch(() => {});
}

/** Applies the repository's uncommitted changes (tracked and untracked) to the copy. */
async function carryChanges(root: string, dir: string): Promise<void> {
  const patch = await git(["diff", "HEAD", "--binary"], root);
  if (patch.trim()) await git(["apply", "--binary", "--whitespace=nowarn", "-"], dir, patch);
  const untracked = await git(["ls-files", "--others", "--exclude-standard", "-z"], root);
  for (const file of untracked.split("\0").filter(Boolean)) {
    await Deno.mkdir(dirname(join(dir, file)), { recursive: true });
    await Deno.copyFile(join(root, file), join(dir, file));
  }
}

/** Copies folder `from` to `to`, keeping symbolic links as links. */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [src, dst] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isSymlink) await Deno.symlink(await Deno.readLink(src), dst);
    else if (entry.isDirectory) await copyTree(src, dst);
    else if (entry.isFile) await Deno.copyFile(src, dst);
  }
}

/** Runs git and answers its stdout; rejects with its stderr on a non-zero exit. */
async function git(args: string[], cwd: string, stdin?: string): Promise<string> {
  const out = await runCommand("git", ["-c", "core.quotepath=off", ...args], { cwd, stdin });
  if (out.code !== 0) {
    throw new UserError(`git ${args[0]} failed in "${cwd}": ${out.stderr.trim()}`, {
      hint: "Check that the repository is in a normal state (no rebase or merge in progress)",
    });
  }
  return out.stdout;
}
