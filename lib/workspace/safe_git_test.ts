import assert from "node:assert/strict";
import { join } from "node:path";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { hostileRepo, SECRET } from "./_hostile_repo.ts";
import { filterOverrides, type GitRunner, neutralGitArgs, openGitRunner } from "./safe_git.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

/**
 * A repository whose config runs `plant.sh` (which creates `marker`) from git status: once as
 * `core.fsmonitor`, once as a clean filter for a file whose stat changed since it was added.
 * It lives outside /tmp, which every sandboxed command has a private copy of.
 */
async function plantedRepo(how: "fsmonitor" | "filter") {
  const base = join(Deno.cwd(), "..");
  const dir = await Deno.realPath(await Deno.makeTempDir({ dir: base, prefix: ".oi_git_" }));
  const marker = join(dir, "marker");
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: dir, stdout: "null", stderr: "null" }).output();
  await git("init", "-q");
  await Deno.writeTextFile(join(dir, "plant.sh"), `#!/bin/sh\necho pwned > '${marker}'\ncat\n`);
  await Deno.chmod(join(dir, "plant.sh"), 0o755);
  await Deno.writeTextFile(join(dir, "f.txt"), "hello\n");
  if (how === "filter") {
    await Deno.writeTextFile(join(dir, ".gitattributes"), "*.txt filter=evil\n");
    await git("config", "filter.evil.clean", join(dir, "plant.sh"));
    await git("add", "f.txt");
    await Deno.remove(marker).catch(() => {});
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(join(dir, "f.txt"), later, later);
  } else {
    await git("config", "core.fsmonitor", join(dir, "plant.sh"));
  }
  return {
    dir,
    marker,
    planted: () => Deno.stat(marker).then(() => true, () => false),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

async function hostStatus(dir: string) {
  await new Deno.Command("git", {
    args: ["status", "--short"],
    cwd: dir,
    stdout: "null",
    stderr: "null",
  }).output();
}

for (const how of ["fsmonitor", "filter"] as const) {
  Deno.test({
    name: `git status through the runner does not run a planted ${how} on the host${BWRAP.note}`,
    ignore: BWRAP.ignore,
    async fn() {
      await using repo = await plantedRepo(how);
      await hostStatus(repo.dir);
      assert.ok(await repo.planted(), "control: plain git status runs the planted program");
      await Deno.remove(repo.marker);

      await using git = await openGitRunner({ env });
      const result = await git.run(["status", "--short", "--branch"], repo.dir);
      assert.ok(result.ok, "git status still works");
      assert.match(result.stdout, /^## /);
      assert.equal(await repo.planted(), false);
    },
  });
}

Deno.test("without a sandbox, a repository whose config names a program is skipped", async () => {
  await using repo = await plantedRepo("filter");
  const sandbox = await openCommandSandbox({
    mode: "read-only",
    writableRoots: [],
    networkAccess: false,
    os: "windows",
  });
  await using git = await openGitRunner({ env, sandbox });
  const result = await git.run(["status", "--short"], repo.dir);
  assert.equal(result.ok, false);
  assert.match(result.skipped ?? "", /filter\.evil\.clean.*runs a program/);
  assert.equal(await repo.planted(), false);
});

Deno.test("without a sandbox, a plain repository still gets its status", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_git_plain_" });
  try {
    await new Deno.Command("git", { args: ["init", "-q"], cwd: dir }).output();
    const sandbox = await openCommandSandbox({
      mode: "read-only",
      writableRoots: [],
      networkAccess: false,
      os: "windows",
    });
    await using git = await openGitRunner({ env, sandbox });
    const result = await git.run(["status", "--short", "--branch"], dir);
    assert.ok(result.ok);
    assert.match(result.stdout, /^## /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const UNTRACKED = ["diff", "--no-index", "--no-color", "--", "/dev/null", "u.txt"];

/** The runner's `git diff HEAD` and untracked-file diff, checked to show raw contents only. */
async function assertRawDiff(git: GitRunner, dir: string) {
  const tracked = await git.run(["diff", "HEAD", "--no-color"], dir);
  const untracked = await git.run(UNTRACKED, dir);
  assert.equal(tracked.skipped, undefined);
  assert.match(tracked.stdout, /^ hello\n\+more$/m);
  assert.match(untracked.stdout, /^\+untracked$/m);
  assert.doesNotMatch(tracked.stdout + untracked.stdout, new RegExp(SECRET));
}

for (const plant of ["filter", "textconv", "external"] as const) {
  Deno.test({
    name: `git diff through the runner does not run a planted ${plant} in the sandbox${BWRAP.note}`,
    ignore: BWRAP.ignore,
    async fn() {
      await using repo = await hostileRepo(plant);
      const control = await repo.hostGit("diff", "HEAD", "--no-color");
      assert.match(control, new RegExp(SECRET), "control: plain git diff runs the program");
      await repo.clearMarker();

      await using git = await openGitRunner({ env: repo.env });
      await assertRawDiff(git, repo.dir);
      assert.equal(await repo.planted(), false);
    },
  });
}

Deno.test("without a sandbox, a filter from the user's global config does not run", async () => {
  await using repo = await hostileRepo("global_filter");
  assert.match(await repo.hostGit("diff", "HEAD"), new RegExp(SECRET), "control");
  await repo.clearMarker();

  await using git = await openGitRunner({ env: repo.env, sandbox: await noSandbox() });
  await assertRawDiff(git, repo.dir);
  assert.ok((await git.run(["status", "--short"], repo.dir)).ok);
  assert.equal(await repo.planted(), false, "the filter ran on the host");
});

Deno.test("core.worktree cannot point the runner's diff at files outside the repository", async () => {
  await using repo = await hostileRepo("worktree");
  assert.match(await repo.hostGit("diff", "HEAD"), new RegExp(SECRET), "control");

  await using git = await openGitRunner({ env: repo.env, sandbox: await noSandbox() });
  await assertRawDiff(git, repo.dir);
});

Deno.test("a filter in a submodule's own config does not run from status or diff", async () => {
  await using repo = await hostileRepo("submodule");
  assert.match(await repo.hostGit("diff", "HEAD"), new RegExp(SECRET), "control");
  await repo.clearMarker();

  await using git = await openGitRunner({ env: repo.env, sandbox: await noSandbox() });
  const status = await git.run(["status", "--short"], repo.dir);
  assert.ok(status.ok);
  assert.match(status.stdout, /^ M f\.txt$/m);
  await assertRawDiff(git, repo.dir);
  assert.equal(await repo.planted(), false, "the submodule's filter ran on the host");
});

Deno.test("a filter name holding '=' and '.' is switched off too", async () => {
  await using repo = await hostileRepo("none");
  await Deno.writeTextFile(join(repo.dir, ".gitattributes"), "* filter=e=v.il\n");
  const script = join(repo.dir, "..", "plant.sh");
  await repo.hostGit("config", "filter.e=v.il.clean", script);
  await repo.hostGit("config", "filter.e=v.il.required", "true");
  assert.match(await repo.hostGit("diff", "HEAD"), new RegExp(SECRET), "control");
  await repo.clearMarker();

  await using git = await openGitRunner({ env: repo.env });
  await assertRawDiff(git, repo.dir);
  assert.equal(await repo.planted(), false);
});

Deno.test("neutralGitArgs() guards diffs and pins the work tree", () => {
  const args = neutralGitArgs(["diff", "HEAD"], { workTree: "/r" });
  assert.deepEqual(args.slice(0, 2), ["--no-pager", "--work-tree=/r"]);
  assert.deepEqual(args.slice(args.indexOf("diff")), [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=dirty",
    "HEAD",
  ]);
  assert.ok(args.includes("log.showSignature=false"));
  const listed = neutralGitArgs(["ls-files", "-z"]);
  assert.deepEqual(listed.slice(listed.indexOf("ls-files")), ["ls-files", "-z"]);
});

Deno.test("filterOverrides() empties each driver's programs through GIT_CONFIG_*", () => {
  assert.deepEqual(filterOverrides([]), {});
  const env = filterOverrides(["a=b"]);
  assert.equal(env.GIT_CONFIG_COUNT, "4");
  assert.equal(env.GIT_CONFIG_KEY_0, "filter.a=b.clean");
  assert.equal(env.GIT_CONFIG_VALUE_0, "");
  assert.equal(env.GIT_CONFIG_KEY_3, "filter.a=b.required");
  assert.equal(env.GIT_CONFIG_VALUE_3, "false");
});

function noSandbox() {
  return openCommandSandbox({
    mode: "read-only",
    writableRoots: [],
    networkAccess: false,
    os: "windows",
  });
}
