import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { copySource, diffOf, makeCopy, removeCopy } from "./copies.ts";
import { mutex } from "./job.ts";

/** Runs the function given at once: enough where one copy is made at a time. */
const noLock = <T>(fn: () => Promise<T>) => fn();

async function git(args: string[], cwd: string, stdin?: string): Promise<string> {
  const child = new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** Folders made by a test, removed on dispose. */
function tempDirs() {
  const dirs: string[] = [];
  return {
    async make(prefix: string): Promise<string> {
      const dir = await Deno.realPath(await Deno.makeTempDir({ prefix }));
      dirs.push(dir);
      return dir;
    },
    async [Symbol.asyncDispose]() {
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A git repository with `a.txt` ("one two three") and `sub/dir/s.txt` committed. */
async function committedRepo(dirs: ReturnType<typeof tempDirs>): Promise<string> {
  const repo = await dirs.make("eval_copies_repo_");
  await Deno.writeTextFile(join(repo, "a.txt"), "one\ntwo\nthree\n");
  await Deno.mkdir(join(repo, "sub", "dir"), { recursive: true });
  await Deno.writeTextFile(join(repo, "sub", "dir", "s.txt"), "s\n");
  await git(["init", "-q"], repo);
  await git(["add", "."], repo);
  await git(["commit", "-qm", "init"], repo);
  return repo;
}

async function worktrees(repo: string): Promise<string[]> {
  const list = await git(["worktree", "list", "--porcelain"], repo);
  return list.split("\n").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function assertUserError(promise: Promise<unknown>, message: RegExp, hint: RegExp) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof UserError, String(error));
    assert.match(error.message, message);
    assert.match(error.hint ?? "", hint);
    return true;
  });
}

Deno.test("makeCopy() makes a worktree at HEAD without the uncommitted changes by default", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await Deno.writeTextFile(join(repo, "a.txt"), "changed\n");
  await Deno.writeTextFile(join(repo, "untracked.txt"), "new\n");

  const source = await copySource(repo, false);
  assert.deepEqual(source, { root: repo, subdir: "", git: true, withChanges: false });
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  assert.equal(copy.workdir, join(copies, "c"));
  assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\ntwo\nthree\n");
  assert.equal(await exists(join(copy.dir, "untracked.txt")), false);
  assert.equal(
    (await git(["rev-parse", "HEAD"], copy.dir)).trim(),
    (await git(["rev-parse", "HEAD"], repo)).trim(),
  );
  assert.match(copy.baseTree ?? "", /^[0-9a-f]{40}$/);
  assert.deepEqual(await diffOf(copy), { patch: "", files: 0, added: 0, deleted: 0 });
  await removeCopy(source, copy, noLock);
});

Deno.test("makeCopy() with withChanges carries modified and untracked files, outside the diff", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await Deno.writeTextFile(join(repo, "a.txt"), "one\nTWO\nthree\n");
  await Deno.writeTextFile(join(repo, "untracked.txt"), "new\n");

  const source = await copySource(repo, true);
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\nTWO\nthree\n");
  assert.equal(await Deno.readTextFile(join(copy.dir, "untracked.txt")), "new\n");
  assert.deepEqual(await diffOf(copy), { patch: "", files: 0, added: 0, deleted: 0 });
  assert.match(
    await git(["status", "--porcelain"], repo),
    /^ M a\.txt$/m,
    "the repository keeps its changes",
  );
  await removeCopy(source, copy, noLock);
});

Deno.test("diffOf() counts an edit and a new file made after the copy, as a patch git applies", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  const source = await copySource(repo, false);
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  await Deno.writeTextFile(join(copy.dir, "a.txt"), "one\nTWO\nthree\nfour\n");
  await Deno.writeTextFile(join(copy.dir, "b.txt"), "x\ny\n");

  const diff = await diffOf(copy);
  assert.ok(diff);
  assert.deepEqual({ ...diff, patch: undefined }, {
    patch: undefined,
    files: 2,
    added: 4,
    deleted: 1,
  });
  assert.match(diff.patch, /^diff --git a\/a\.txt b\/a\.txt$/m);
  assert.match(diff.patch, /^\+\+\+ b\/b\.txt$/m);
  assert.equal(await git(["diff", "--cached", "--name-only"], copy.dir), "", "index left clean");

  const fresh = await makeCopy(source, join(copies, "fresh"), noLock);
  await git(["apply", "--check", "-"], fresh.dir, diff.patch);
  await assert.rejects(git(["apply", "--check", "-"], copy.dir, diff.patch));
  await removeCopy(source, fresh, noLock);
  await removeCopy(source, copy, noLock);
});

Deno.test("removeCopy() leaves git with only the main worktree and removes the folder", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  const source = await copySource(repo, false);
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  await Deno.writeTextFile(join(copy.dir, "dirty.txt"), "x\n");
  assert.deepEqual(await worktrees(repo), [repo, copy.dir]);

  await removeCopy(source, copy, noLock);
  assert.deepEqual(await worktrees(repo), [repo]);
  assert.equal(await exists(copy.dir), false);
});

Deno.test("makeCopy() gives a workdir in the same subfolder of the copy as eval ran in", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  const source = await copySource(join(repo, "sub", "dir"), false);
  assert.equal(source.root, repo);
  assert.equal(source.subdir, join("sub", "dir"));
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  assert.equal(copy.workdir, join(copies, "c", "sub", "dir"));
  assert.equal(await Deno.readTextFile(join(copy.workdir, "s.txt")), "s\n");
  await removeCopy(source, copy, noLock);
});

Deno.test("makeCopy() copies a folder outside git with its symlinks as links; diffOf() cannot tell", async () => {
  await using dirs = tempDirs();
  const folder = await dirs.make("eval_copies_plain_");
  const copies = await dirs.make("eval_copies_");
  await Deno.mkdir(join(folder, "nested"));
  await Deno.writeTextFile(join(folder, "nested", "f.txt"), "f\n");
  await Deno.symlink("nested/f.txt", join(folder, "link"));

  const source = await copySource(folder, false);
  assert.deepEqual(source, { root: folder, subdir: "", git: false, withChanges: false });
  const copy = await makeCopy(source, join(copies, "c"), noLock);
  assert.equal(copy.baseTree, undefined);
  assert.equal(await Deno.readTextFile(join(copy.dir, "nested", "f.txt")), "f\n");
  assert.ok((await Deno.lstat(join(copy.dir, "link"))).isSymlink);
  assert.equal(await Deno.readLink(join(copy.dir, "link")), "nested/f.txt");
  assert.equal(await diffOf(copy), undefined);

  await removeCopy(source, copy, noLock);
  assert.equal(await exists(copy.dir), false);
  assert.ok(await exists(join(folder, "link")), "the original is left alone");
});

Deno.test("copySource() refuses withChanges outside git and a repository with no commit", async () => {
  await using dirs = tempDirs();
  const folder = await dirs.make("eval_copies_plain_");
  await assertUserError(
    copySource(folder, true),
    /is not in a git repository: --with-changes has no meaning/,
    /Leave out --with-changes/,
  );
  await git(["init", "-q"], folder);
  await assertUserError(copySource(folder, false), /has no commit yet/, /Commit the files/);
});

Deno.test("makeCopy() makes 3 worktrees at once when a lock serializes their additions", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  const source = await copySource(repo, false);
  const lock = mutex();
  const made = await Promise.all(
    ["c1", "c2", "c3"].map((name) => makeCopy(source, join(copies, name), lock)),
  );
  assert.deepEqual((await worktrees(repo)).sort(), [repo, ...made.map((c) => c.dir)].sort());
  for (const copy of made) {
    assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\ntwo\nthree\n");
  }
  await Promise.all(made.map((copy) => removeCopy(source, copy, lock)));
  assert.deepEqual(await worktrees(repo), [repo]);
});
