import assert from "node:assert/strict";
import { join } from "node:path";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { ToolError } from "../errors.ts";
import {
  checkWorktreeName,
  createWorktree,
  mainRepositoryOf,
  removeWorktree,
  repositoryAt,
  worktreeChanges,
  worktreeWritableRoots,
} from "./worktree.ts";

await need("bwrap");

const GIT_ENV = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

/** A repository with one commit, and a home folder, removed at the end. */
async function repoAndHome() {
  // Outside /tmp, which every sandboxed command has a private copy of.
  const base = "/var/tmp";
  const top = await Deno.realPath(await Deno.makeTempDir({ dir: base, prefix: ".oi_wt_" }));
  const repo = join(top, "repo");
  const home = join(top, "home");
  await Deno.mkdir(repo);
  await Deno.mkdir(home);
  const git = async (cwd: string, ...args: string[]) => {
    const out = await new Deno.Command("git", { args, cwd, env: GIT_ENV }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  };
  await git(repo, "init", "-q", "-b", "main");
  await Deno.writeTextFile(join(repo, "a.txt"), "a\n");
  await git(repo, "add", "a.txt");
  await git(repo, "commit", "-q", "-m", "first");
  return {
    repo,
    home,
    git,
    [Symbol.asyncDispose]: () => Deno.remove(top, { recursive: true }),
  };
}

/** Runs `script` with bash in a workspace-write sandbox writing only `roots`, in `cwd`. */
async function sandboxed(roots: string[], cwd: string, script: string) {
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: roots,
    networkAccess: false,
  });
  try {
    const spec = await sandbox.wrap({ argv: ["bash", "-c", script], cwd, env: GIT_ENV });
    const out = await new Deno.Command(spec.cmd, { args: spec.args, cwd, env: spec.env })
      .output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  } finally {
    await sandbox.close();
  }
}

Deno.test("checkWorktreeName() takes slugs and refuses paths that could escape", () => {
  for (const ok of ["fix-login", "feat/x_1.2", "a".repeat(64)]) {
    assert.equal(checkWorktreeName(ok), ok);
  }
  for (const bad of ["", "../x", "a/../b", ".", "a b", "/abs", "x/", "a".repeat(65), "é"]) {
    assert.throws(() => checkWorktreeName(bad), ToolError, bad);
  }
});

Deno.test("a worktree is created through git, found from its folder and removed", async () => {
  await using r = await repoAndHome();
  const g = { env: GIT_ENV, home: r.home };
  const wt = await createWorktree(g, await repositoryAt(join(r.repo)), "fix/one");
  assert.ok(wt.path.startsWith(join(r.home, "worktrees")), wt.path);
  assert.equal(wt.branch, "worktree-fix-one");
  assert.equal(await Deno.readTextFile(join(wt.path, "a.txt")), "a\n");
  assert.equal(await mainRepositoryOf(wt.path), r.repo);
  assert.equal(await mainRepositoryOf(r.repo), r.repo);
  assert.equal((await repositoryAt(wt.path)).repoRoot, r.repo);
  assert.match(await r.git(r.repo, "worktree", "list"), /worktree-fix-one/);
  const repo = await repositoryAt(r.repo);
  await assert.rejects(() => createWorktree(g, repo, "fix/one"), ToolError);

  await Deno.writeTextFile(join(wt.path, "b.txt"), "b\n");
  assert.deepEqual(await worktreeChanges(g, wt), { files: ["b.txt"], commits: 0 });
  await assert.rejects(() => removeWorktree(g, wt, false), ToolError);
  await removeWorktree(g, wt, true);
  assert.equal(await Deno.stat(wt.path).catch(() => undefined), undefined);
  assert.doesNotMatch(await r.git(r.repo, "branch"), /worktree-fix-one/);
});

Deno.test("the worktree's sandbox commits in it but cannot touch .git/config, hooks or info", async () => {
  await using r = await repoAndHome();
  const g = { env: GIT_ENV, home: r.home };
  const wt = await createWorktree(g, await repositoryAt(r.repo), "sbx");
  const roots = worktreeWritableRoots(wt);
  assert.ok(!roots.some((root) => /\/(config|hooks|info)$/.test(root)), roots.join(" "));
  const commit = await sandboxed(
    roots,
    wt.path,
    "echo new > new.txt && git add new.txt && git commit -q -m new",
  );
  assert.equal(commit.code, 0, commit.stderr);
  assert.match(await r.git(r.repo, "log", "--oneline", wt.branch), /new/);
  assert.deepEqual(await worktreeChanges(g, wt), { files: [], commits: 1 });
  const git = join(r.repo, ".git");
  for (
    const target of [
      join(git, "config"),
      join(git, "hooks", "pre-commit"),
      join(git, "info", "exclude"),
      join(r.repo, "a.txt"),
      join(wt.path, ".git"),
    ]
  ) {
    const before = await Deno.readTextFile(target).catch(() => undefined);
    const out = await sandboxed(roots, wt.path, `echo pwned >> '${target}'`);
    assert.notEqual(out.code, 0, `${target} was writable`);
    assert.equal(await Deno.readTextFile(target).catch(() => undefined), before);
  }
  await removeWorktree(g, wt, true);
});
