/**
 * The isolated copy each eval run works in: a local clone of the repository at the HEAD eval
 * started from (with the uncommitted changes on `--with-changes`), or a plain copy of a folder
 * outside git. A clone has a `.git` folder of its own, with the objects copied (never linked),
 * no remote and no worktree registered in the repository: nothing in a copy leads back to the
 * main `.git` for writing. The copy's starting tree is kept as a git tree id, so the run's diff
 * is what the agent changed. Beside each copy is a fresh HOME for its setup and check.
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import type { EvalGit } from "../../session/eval_sandboxes.ts";

/** What the copies are made from. */
export interface CopySource {
  /** The repository root (git) or the folder (plain). */
  root: string;
  /** Where the user ran eval, relative to `root`: each run works in the same place of its copy. */
  subdir: string;
  git: boolean;
  withChanges: boolean;
  /** The commit every copy starts from (git only). */
  head?: string;
  /** The repository's objects folder, copied into each clone (git only). */
  objects?: string;
  /** `sha1` or `sha256` (git only). */
  objectFormat?: string;
  /** The repository's `shallow` file, when it is a shallow clone (git only). */
  shallow?: string;
}

/** A made copy. */
export interface Copy {
  dir: string;
  /** The run's working directory inside the copy. */
  workdir: string;
  /** The HOME of the copy's setup and check: a fresh folder beside the copy. */
  home: string;
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
export async function copySource(
  cwd: string,
  withChanges: boolean,
  git: EvalGit,
): Promise<CopySource> {
  const top = await git.repositoryTop(cwd);
  if (top === undefined) {
    if (withChanges) {
      throw new UserError(`"${cwd}" is not in a git repository: --with-changes has no meaning`, {
        hint: "Leave out --with-changes: a folder outside git is copied as it is",
      });
    }
    return { root: cwd, subdir: "", git: false, withChanges };
  }
  const root = top.trim();
  const head = await git.run(["rev-parse", "--verify", "HEAD"], root).catch(() => undefined);
  if (head === undefined) {
    throw new UserError(`The repository at "${root}" has no commit yet`, {
      hint: "Commit the files the task needs: each run starts from a clone at HEAD",
    });
  }
  const facts = await git.run(["rev-parse", "--show-object-format", "--git-path", "objects"], root);
  const [objectFormat, objects] = facts.trim().split("\n");
  const shallow = resolve(
    root,
    (await git.run(["rev-parse", "--git-path", "shallow"], root)).trim(),
  );
  return {
    root,
    subdir: relative(root, await Deno.realPath(cwd)),
    git: true,
    withChanges,
    head: head.trim(),
    objects: resolve(root, objects),
    objectFormat,
    ...(await isFile(shallow) ? { shallow } : {}),
  };
}

/** Whether the repository has changes a copy at HEAD would not hold (tracked or untracked). */
export async function hasUncommittedChanges(source: CopySource, git: EvalGit): Promise<boolean> {
  if (!source.git || source.withChanges) return false;
  const status = await git.run(["status", "--porcelain", "--untracked-files=normal"], source.root)
    .catch(() => "");
  return status.trim() !== "";
}

/** Makes a copy at `dir` (which must not exist), and its HOME beside it. */
export async function makeCopy(source: CopySource, dir: string, git: EvalGit): Promise<Copy> {
  const workdir = join(dir, source.subdir);
  const home = `${dir}.home`;
  await Deno.mkdir(home);
  if (!source.git) {
    await copyTree(source.root, dir);
    return { dir, workdir, home };
  }
  await cloneAt(source, dir);
  await git.run(["reset", "-q", "--hard"], dir);
  if (source.withChanges) await carryChanges(source.root, dir, git);
  await git.run(["add", "-A"], dir);
  const baseTree = (await git.run(["write-tree"], dir)).trim();
  await git.run(["reset", "-q"], dir);
  return { dir, workdir, home, baseTree };
}

/** The agent's changes in `copy`, or undefined when git cannot tell them. */
export async function diffOf(copy: Copy, git: EvalGit): Promise<CopyDiff | undefined> {
  if (copy.baseTree === undefined) return undefined;
  try {
    await git.run(["add", "-A"], copy.dir);
    const patch = await git.run(["diff", "--cached", "--binary", copy.baseTree], copy.dir);
    const numstat = await git.run(["diff", "--cached", "--numstat", copy.baseTree], copy.dir);
    await git.run(["reset", "-q"], copy.dir);
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

/** Removes a copy and its HOME; folders the run made read-only are made writable first. */
export async function removeCopy(copy: { dir: string; home?: string }): Promise<void> {
  for (const dir of [copy.dir, copy.home ?? `${copy.dir}.home`]) {
    await Deno.remove(dir, { recursive: true }).catch(async () => {
      await writableTree(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    });
  }
}

/**
 * A `.git` folder at `dir` that git reads as a repository at `source.head`, detached: HEAD, a
 * config of our own, no hooks, and a copy of the objects (what `git clone --local
 * --no-hardlinks` copies; git itself cannot clone here, its file transport is off).
 */
async function cloneAt(source: CopySource, dir: string): Promise<void> {
  const gitDir = join(dir, ".git");
  await Deno.mkdir(join(gitDir, "refs", "heads"), { recursive: true });
  await Deno.mkdir(join(gitDir, "refs", "tags"));
  await Deno.writeTextFile(join(gitDir, "HEAD"), `${source.head}\n`);
  const sha256 = source.objectFormat === "sha256";
  const config = `[core]\n\trepositoryformatversion = ${sha256 ? 1 : 0}\n\tbare = false\n` +
    (sha256 ? "[extensions]\n\tobjectformat = sha256\n" : "");
  await Deno.writeTextFile(join(gitDir, "config"), config);
  await copyObjects(source.objects!, join(gitDir, "objects"));
  if (source.shallow) await Deno.copyFile(source.shallow, join(gitDir, "shallow"));
}

/** Copies an objects folder: its folders and regular files; alternates made absolute. */
async function copyObjects(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [src, dst] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) await copyObjects(src, dst);
    else if (entry.isFile) await Deno.copyFile(src, dst);
  }
  const alternates = join(to, "info", "alternates");
  if (!await isFile(alternates)) return;
  const lines = (await Deno.readTextFile(alternates)).split("\n").map((line) =>
    line === "" || line.startsWith("#") || isAbsolute(line) ? line : resolve(from, line)
  );
  await Deno.writeTextFile(alternates, lines.join("\n"));
}

/** Applies the repository's uncommitted changes (tracked and untracked) to the copy. */
async function carryChanges(root: string, dir: string, git: EvalGit): Promise<void> {
  const patch = await git.run(["diff", "HEAD", "--binary"], root);
  if (patch.trim()) {
    const file = join(dir, ".git", "interpreter-eval-changes.patch");
    await Deno.writeTextFile(file, patch);
    await git.run(["apply", "--binary", "--whitespace=nowarn", file], dir);
    await Deno.remove(file);
  }
  const untracked = await git.run(["ls-files", "--others", "--exclude-standard", "-z"], root);
  for (const file of untracked.split("\0").filter(Boolean)) {
    await Deno.mkdir(dirname(join(dir, file)), { recursive: true });
    await copyEntry(join(root, file), join(dir, file));
  }
}

/** Copies folder `from` to `to`, keeping symbolic links as links. */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [src, dst] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) await copyTree(src, dst);
    else await copyEntry(src, dst);
  }
}

/** Copies a regular file, or a symbolic link as a link; skips anything else. */
async function copyEntry(src: string, dst: string): Promise<void> {
  const info = await Deno.lstat(src);
  if (info.isSymlink) await Deno.symlink(await Deno.readLink(src), dst);
  else if (info.isFile) await Deno.copyFile(src, dst);
}

/** Gives the owner write and search permission on every folder under `dir` (links not followed). */
async function writableTree(dir: string): Promise<void> {
  const info = await Deno.lstat(dir).catch(() => undefined);
  if (!info?.isDirectory) return;
  await Deno.chmod(dir, 0o700).catch(() => {});
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) await writableTree(join(dir, entry.name));
  }
}

async function isFile(path: string): Promise<boolean> {
  return await Deno.lstat(path).then((info) => info.isFile, () => false);
}
