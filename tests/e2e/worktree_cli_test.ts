/**
 * Worktrees from the command line (issue 34, item 6): `exec --worktree NAME` works in a new
 * worktree (its edits land there only, the banner names it), `worktree list` shows it dirty,
 * `worktree remove` refuses its uncommitted work without `--force`, and `exec resume` of its
 * session goes back into it (or says it is gone).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { need } from "../../sandbox/_test_requires.ts";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, run } from "./_harness_env.ts";
import { pipedRepl } from "./_setups_repo.ts";

const BWRAP = await need("bwrap");

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test({
  name: `exec --worktree works in a new worktree; list, remove and resume follow it${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    const write = { cmd: "echo made > made.txt && pwd" };
    await using fake = await startFakeProvider([
      { reply: { tool_calls: [{ name: "exec_command", args: write }] } },
      { expect: { last_tool_result_contains: "fix-login" }, reply: { text: "Written." } },
      { expect: { user_contains: "where are you" }, reply: { text: "Here." } },
      { expect: { user_contains: "and now" }, reply: { text: "Elsewhere." } },
    ]);
    const repo = await fixtureRepo("habits");
    const home = await fakeHome(fake.baseUrl, "chat");
    const ws = { cwd: repo, home };
    try {
      const before = (await run("git", ["status", "--porcelain"], repo)).stdout;
      const made = await interpreter(
        ["exec", "-s", "workspace-write", "--worktree", "fix-login", "write the file"],
        ws,
      );
      assert.equal(made.code, 0, made.stderr);
      assert.equal(made.stdout, "Written.\n");
      const wtMatch = /worktree: fix-login \(branch worktree-fix-login\) at (\S+)/.exec(
        made.stderr,
      );
      assert.ok(wtMatch, made.stderr);
      const path = wtMatch[1];
      assert.ok(path.startsWith(join(home, "worktrees")), path);
      assert.equal(await Deno.readTextFile(join(path, "made.txt")), "made\n");
      assert.equal(await exists(join(repo, "made.txt")), false, "the main tree is unchanged");
      assert.equal((await run("git", ["status", "--porcelain"], repo)).stdout, before);

      const list = await interpreter(["worktree", "list", "--json"], ws);
      assert.equal(list.code, 0, list.stderr);
      const [row] = JSON.parse(list.stdout);
      assert.equal(row.name, "fix-login");
      assert.equal(row.branch, "worktree-fix-login");
      assert.equal(row.path, path);
      assert.deepEqual(row.changedFiles, ["made.txt"]);
      assert.match(row.session, /^[0-9a-f-]{36}$/);
      const text = await interpreter(["worktree", "list"], ws);
      assert.match(text.stdout, /fix-login {2}branch worktree-fix-login {2}dirty: 1 uncommitted/);

      // Resumed from the main repository (--last finds it there), the session goes back into
      // its worktree.
      const resumed = await interpreter(["exec", "resume", "--last", "where are you"], ws);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /worktree: fix-login/);
      assert.ok(resumed.stderr.includes(`workdir: ${path}`), resumed.stderr);

      const refused = await interpreter(["worktree", "remove", "fix-login"], ws);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /1 uncommitted file\(s\) \(made\.txt\)/);
      assert.match(refused.stderr, /--force/);
      assert.ok(await exists(join(path, "made.txt")), "nothing was removed");

      const removed = await interpreter(["worktree", "remove", "fix-login", "--force"], ws);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(await exists(path), false);
      const branches = (await run("git", ["branch", "--list", "worktree-*"], repo)).stdout;
      assert.equal(branches, "", "its branch went with it");

      const gone = await interpreter(["exec", "resume", row.session, "and now"], ws);
      assert.equal(gone.code, 0, gone.stderr);
      assert.match(gone.stderr, /warning: This session was made in worktree .*, which is gone/);
      assert.ok(gone.stderr.includes(`workdir: ${repo}`), gone.stderr);
      assert.deepEqual(fake.failures, []);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("--worktree refuses a bad name and a folder outside a repository, naming the fix", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  const plain = await Deno.makeTempDir({ prefix: "oi-plain-" });
  try {
    const bad = await interpreter([
      "exec",
      "--skip-git-repo-check",
      "--worktree",
      "fix the bug",
      "hi",
    ], { cwd: plain, home });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /"fix the bug" is not a valid worktree name/);
    const outside = await interpreter(
      ["exec", "--skip-git-repo-check", "--worktree=x", "hi"],
      { cwd: plain, home },
    );
    assert.equal(outside.code, 2, outside.stderr);
    assert.match(outside.stderr, /is not inside a git repository/);
    assert.match(outside.stderr, /hint: .*git init/);
    const resume = await interpreter(["exec", "--worktree=x", "resume", "--last", "hi"], {
      cwd: plain,
      home,
    });
    assert.equal(resume.code, 2, resume.stderr);
    assert.match(resume.stderr, /--worktree starts a new session/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(plain, { recursive: true });
  }
});

Deno.test({
  name:
    `the REPL with --worktree=NAME names its worktree in the banner and works there${BWRAP.note}`,
  ignore: BWRAP.ignore,
  async fn() {
    await using fake = await startFakeProvider([
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "pwd" } }] } },
      { expect: { last_tool_result_contains: "worktrees" }, reply: { text: "In it." } },
    ]);
    const repo = await fixtureRepo("habits");
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      const out = await pipedRepl(["--worktree=repl-wt"], {
        cwd: repo,
        home,
        stdin: "where?\n/status\n",
      });
      assert.equal(out.code, 0, out.stderr);
      const all = out.stdout + out.stderr;
      assert.match(all, /worktree: repl-wt \(branch worktree-repl-wt\) at /);
      assert.match(all, /In it\./);
      assert.match(
        out.stdout,
        /^worktree: {2,}repl-wt \(branch worktree-repl-wt\)/m,
        "/status names it",
      );
      assert.ok(await exists(join(home, "worktrees")), "the worktree went under the home");
      assert.deepEqual(fake.failures, []);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
