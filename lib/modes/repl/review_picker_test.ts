import assert from "node:assert/strict";
import { join } from "node:path";
import { makeStyle } from "../term/style.ts";
import { repoGit } from "../../workspace/repo_git.ts";
import { pickReviewTarget } from "./review_picker.ts";
import { openGitRunner } from "../../workspace/safe_git.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** A repository with branches main and topic (checked out) and two commits. */
async function repo() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_review_pick_" }));
  await git(dir, "init", "-q", "-b", "main");
  await Deno.writeTextFile(join(dir, "a.txt"), "a\n");
  await git(dir, "add", "a.txt");
  await git(dir, "commit", "-qm", "First commit");
  await git(dir, "checkout", "-qb", "topic");
  await Deno.writeTextFile(join(dir, "b.txt"), "b\n");
  await git(dir, "add", "b.txt");
  await git(dir, "commit", "-qm", "Second commit");
  const runner = await openGitRunner({ env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" } });
  return {
    dir,
    /** Runs the picker with these answers; returns the target and what it printed. */
    async pick(answers: string[]) {
      const printed: string[] = [];
      const target = await pickReviewTarget({
        git: (args) => repoGit({ git: runner, isHeldBack: () => false }, dir, args),
        print: (lines) => printed.push(...lines),
        ask: (prompt) => (printed.push(prompt), Promise.resolve(answers.shift() ?? null)),
        style: makeStyle(false),
      });
      return { target, printed: printed.join("\n") };
    },
    async [Symbol.asyncDispose]() {
      await runner[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the /review picker lists other branches and recent commits, by number or by name", async () => {
  await using r = await repo();
  const byNumber = await r.pick(["1", "1"]);
  assert.deepEqual(byNumber.target, { kind: "base", branch: "main" });
  assert.match(byNumber.printed, /^ 1 {2}main$/m);
  assert.doesNotMatch(byNumber.printed, /^ \d {2}topic$/m, "the current branch is not a base");

  assert.deepEqual((await r.pick(["1", "release-2"])).target, {
    kind: "base",
    branch: "release-2",
  });

  const commit = await r.pick(["3", "2"]);
  assert.match(
    commit.printed,
    /^ 1 {2}[0-9a-f]{7} {2}Second commit\n 2 {2}[0-9a-f]{7} {2}First commit$/m,
  );
  assert.equal(commit.target?.kind === "commit" && commit.target.title, "First commit");

  assert.deepEqual((await r.pick(["3", "abc1234"])).target, { kind: "commit", sha: "abc1234" });
  assert.deepEqual((await r.pick(["2"])).target, { kind: "uncommitted" });
  assert.deepEqual((await r.pick(["4", "only the tests"])).target, {
    kind: "custom",
    instructions: "only the tests",
  });
});

Deno.test("the /review picker cancels on Enter, end of input or a choice out of range", async () => {
  await using r = await repo();
  assert.equal((await r.pick([""])).target, undefined);
  assert.equal((await r.pick([])).target, undefined);
  assert.equal((await r.pick(["1", ""])).target, undefined);
  assert.equal((await r.pick(["4", "  "])).target, undefined);
  const wrong = await r.pick(["7"]);
  assert.equal(wrong.target, undefined);
  assert.match(wrong.printed, /No choice 7; nothing reviewed/);
});

Deno.test("the /review picker shows a commit subject's escape sequences inert and keeps the title", async () => {
  await using r = await repo();
  const subject = "Fix\x1b]0;title\x07 \x1b[2Jit";
  await git(r.dir, "commit", "--allow-empty", "-qm", subject);
  const picked = await r.pick(["3", "1"]);
  assert.match(
    picked.printed,
    /^ 1 {2}[0-9a-f]{7} {2}Fix\\u\{1b\}\]0;title\\u\{7\} \\u\{1b\}\[2Jit$/m,
  );
  assert.ok(!picked.printed.includes("\x1b"));
  assert.equal(picked.target?.kind === "commit" && picked.target.title, subject);
});
