import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { openEvalGit } from "../../session/eval_sandboxes.ts";
import { copySource, diffOf, makeCopy, removeCopy } from "./copies.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

/** Eval's git runners: read-only for the source, and one that may write `copies`. */
async function runners(copies: string) {
  const read = await openEvalGit({ env: ENV });
  const write = await openEvalGit({ env: ENV, writableRoot: copies });
  return {
    read,
    write,
    async [Symbol.asyncDispose]() {
      await read[Symbol.asyncDispose]();
      await write[Symbol.asyncDispose]();
    },
  };
}

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

/** Every file under `dir` (links not followed). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
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

Deno.test("makeCopy() makes a clone at HEAD, without the uncommitted changes, that leads nowhere back into the repository", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  await Deno.writeTextFile(join(repo, "a.txt"), "changed\n");
  await Deno.writeTextFile(join(repo, "untracked.txt"), "new\n");

  const source = await copySource(repo, false, g.read);
  const head = (await git(["rev-parse", "HEAD"], repo)).trim();
  assert.deepEqual(
    { ...source, objects: undefined },
    {
      root: repo,
      subdir: "",
      git: true,
      withChanges: false,
      head,
      objects: undefined,
      objectFormat: "sha1",
    },
  );
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  assert.equal(copy.workdir, join(copies, "c"));
  assert.equal(copy.home, join(copies, "c.home"));
  assert.deepEqual(await Array.fromAsync(Deno.readDir(copy.home)), []);
  assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\ntwo\nthree\n");
  assert.equal(await exists(join(copy.dir, "untracked.txt")), false);
  assert.equal((await git(["rev-parse", "HEAD"], copy.dir)).trim(), head);
  assert.match(copy.baseTree ?? "", /^[0-9a-f]{40}$/);
  assert.deepEqual(await diffOf(copy, g.write), { patch: "", files: 0, added: 0, deleted: 0 });
  assert.equal(await git(["status", "--porcelain"], copy.dir), "");
  assert.equal(await git(["log", "--format=%s"], copy.dir), "init\n", "history is there");

  // Its own .git folder: no gitdir file, no alternates, no remote, no shared object file.
  assert.ok((await Deno.lstat(join(copy.dir, ".git"))).isDirectory);
  assert.equal((await git(["rev-parse", "--git-common-dir"], copy.dir)).trim(), ".git");
  assert.equal(await exists(join(copy.dir, ".git", "objects", "info", "alternates")), false);
  assert.equal(await git(["remote"], copy.dir), "");
  const objects = await filesUnder(join(copy.dir, ".git", "objects"));
  assert.ok(objects.length > 0);
  for (const file of objects) assert.equal((await Deno.lstat(file)).nlink, 1, file);
  assert.deepEqual(await worktrees(repo), [repo], "the repository registers no worktree");
  await removeCopy(copy);
});

Deno.test("makeCopy() with withChanges carries modified and untracked files (links as links), outside the diff", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  await Deno.writeTextFile(join(repo, "a.txt"), "one\nTWO\nthree\n");
  await Deno.writeTextFile(join(repo, "untracked.txt"), "new\n");
  await Deno.mkdir(join(repo, "new", "deep"), { recursive: true });
  await Deno.writeTextFile(join(repo, "new", "deep", "n.txt"), "n\n");
  await Deno.symlink("/etc/hostname", join(repo, "link"));

  const source = await copySource(repo, true, g.read);
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\nTWO\nthree\n");
  assert.equal(await Deno.readTextFile(join(copy.dir, "untracked.txt")), "new\n");
  assert.equal(await Deno.readTextFile(join(copy.dir, "new", "deep", "n.txt")), "n\n");
  assert.equal(await Deno.readLink(join(copy.dir, "link")), "/etc/hostname");
  assert.deepEqual(await diffOf(copy, g.write), { patch: "", files: 0, added: 0, deleted: 0 });
  assert.equal(
    await exists(join(copy.dir, ".git", "interpreter-eval-changes.patch")),
    false,
    "the patch file is removed",
  );
  assert.match(
    await git(["status", "--porcelain"], repo),
    /^ M a\.txt$/m,
    "the repository keeps its changes",
  );
  await removeCopy(copy);
});

Deno.test("diffOf() counts an edit and a new file made after the copy, as a patch git applies", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  const source = await copySource(repo, false, g.read);
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  await Deno.writeTextFile(join(copy.dir, "a.txt"), "one\nTWO\nthree\nfour\n");
  await Deno.writeTextFile(join(copy.dir, "b.txt"), "x\ny\n");

  const diff = await diffOf(copy, g.write);
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

  const fresh = await makeCopy(source, join(copies, "fresh"), g.write);
  await git(["apply", "--check", "-"], fresh.dir, diff.patch);
  await assert.rejects(git(["apply", "--check", "-"], copy.dir, diff.patch));
  await removeCopy(fresh);
  await removeCopy(copy);
});

Deno.test("removeCopy() removes the copy and its HOME, folders made read-only included", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  const source = await copySource(repo, false, g.read);
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  await Deno.writeTextFile(join(copy.dir, "dirty.txt"), "x\n");
  await Deno.mkdir(join(copy.home, ".cache", "locked"), { recursive: true });
  await Deno.writeTextFile(join(copy.home, ".cache", "locked", "f"), "f\n");
  await Deno.chmod(join(copy.home, ".cache", "locked"), 0o500);
  await Deno.chmod(join(copy.home, ".cache"), 0o500);

  await removeCopy(copy);
  assert.equal(await exists(copy.dir), false);
  assert.equal(await exists(copy.home), false);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(copies)), []);
  assert.deepEqual(await worktrees(repo), [repo]);
});

Deno.test("makeCopy() gives a workdir in the same subfolder of the copy as eval ran in", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  const source = await copySource(join(repo, "sub", "dir"), false, g.read);
  assert.equal(source.root, repo);
  assert.equal(source.subdir, join("sub", "dir"));
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  assert.equal(copy.workdir, join(copies, "c", "sub", "dir"));
  assert.equal(await Deno.readTextFile(join(copy.workdir, "s.txt")), "s\n");
  await removeCopy(copy);
});

Deno.test("makeCopy() copies a folder outside git with its symlinks as links; diffOf() cannot tell", async () => {
  await using dirs = tempDirs();
  const folder = await dirs.make("eval_copies_plain_");
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  await Deno.mkdir(join(folder, "nested"));
  await Deno.writeTextFile(join(folder, "nested", "f.txt"), "f\n");
  await Deno.symlink("nested/f.txt", join(folder, "link"));

  const source = await copySource(folder, false, g.read);
  assert.deepEqual(source, { root: folder, subdir: "", git: false, withChanges: false });
  const copy = await makeCopy(source, join(copies, "c"), g.write);
  assert.equal(copy.baseTree, undefined);
  assert.equal(await Deno.readTextFile(join(copy.dir, "nested", "f.txt")), "f\n");
  assert.ok((await Deno.lstat(join(copy.dir, "link"))).isSymlink);
  assert.equal(await Deno.readLink(join(copy.dir, "link")), "nested/f.txt");
  assert.equal(await diffOf(copy, g.write), undefined);

  await removeCopy(copy);
  assert.equal(await exists(copy.dir), false);
  assert.ok(await exists(join(folder, "link")), "the original is left alone");
});

Deno.test("copySource() refuses withChanges outside git and a repository with no commit", async () => {
  await using dirs = tempDirs();
  const folder = await dirs.make("eval_copies_plain_");
  await using read = await openEvalGit({ env: ENV });
  await assertUserError(
    copySource(folder, true, read),
    /is not in a git repository: --with-changes has no meaning/,
    /Leave out --with-changes/,
  );
  await git(["init", "-q"], folder);
  await assertUserError(copySource(folder, false, read), /has no commit yet/, /Commit the files/);
});

Deno.test("makeCopy() makes 3 copies of one repository at once", async () => {
  await using dirs = tempDirs();
  const repo = await committedRepo(dirs);
  const copies = await dirs.make("eval_copies_");
  await using g = await runners(copies);
  const source = await copySource(repo, false, g.read);
  const made = await Promise.all(
    ["c1", "c2", "c3"].map((name) => makeCopy(source, join(copies, name), g.write)),
  );
  for (const copy of made) {
    assert.equal(await Deno.readTextFile(join(copy.dir, "a.txt")), "one\ntwo\nthree\n");
    assert.equal(await git(["status", "--porcelain"], copy.dir), "");
  }
  await Promise.all(made.map((copy) => removeCopy(copy)));
  assert.deepEqual(await Array.fromAsync(Deno.readDir(copies)), []);
});
