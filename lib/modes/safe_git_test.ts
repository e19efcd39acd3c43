import assert from "node:assert/strict";
import { join } from "node:path";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { openGitRunner } from "./safe_git.ts";

const hasBwrap = await new Deno.Command("bwrap", {
  args: ["--ro-bind", "/", "/", "--unshare-user", "true"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

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
    name: `git status through the runner does not run a planted ${how} on the host`,
    ignore: !hasBwrap,
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
