import assert from "node:assert/strict";
import { join } from "node:path";
import { type ScriptTurn, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, run } from "./_harness_env.ts";

/** A fixture repository and a config home talking to a fake provider with `turns`. */
async function reviewEnv(turns: ScriptTurn[] | ((repo: string) => ScriptTurn[])) {
  const repo = await Deno.realPath(await fixtureRepo("habits"));
  const fake = startFakeProvider(typeof turns === "function" ? turns(repo) : turns);
  const home = await fakeHome(fake.baseUrl, "chat");
  return {
    fake,
    repo,
    home,
    review: (args: string[]) => interpreter(["exec", "review", ...args], { cwd: repo, home }),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    },
  };
}

function twoFindings(repo: string): string {
  return JSON.stringify({
    findings: [
      {
        title: "Compare whole dates, not day numbers",
        body: "`today.day - previous.day` is -30 across a month end,\nso the streak resets.",
        confidence_score: 0.9,
        priority: 1,
        code_location: {
          absolute_file_path: join(repo, "habits.py"),
          line_range: { start: 13, end: 14 },
        },
      },
      {
        title: "The new helper has no test",
        body: "`weekly_total` is untested.",
        confidence_score: 0.5,
        priority: 3,
        code_location: {
          absolute_file_path: join(repo, "weekly.py"),
          line_range: { start: 1, end: 2 },
        },
      },
    ],
    overall_correctness: "patch is incorrect",
    overall_explanation: "Streaks break at month boundaries.",
    overall_confidence_score: 0.85,
  });
}

const TWO_FINDINGS_OUTPUT = `Streaks break at month boundaries.

habits.py:13-14  [P1]  Compare whole dates, not day numbers
    \`today.day - previous.day\` is -30 across a month end,
    so the streak resets.

weekly.py:1-2  [P3]  The new helper has no test
    \`weekly_total\` is untested.

Verdict: patch is incorrect (confidence 0.85)
`;

Deno.test("exec review --uncommitted sends the changes with untracked files and prints the findings", async () => {
  await using env = await reviewEnv((repo) => [{ reply: { text: twoFindings(repo) } }]);
  const habits = join(env.repo, "habits.py");
  await Deno.writeTextFile(habits, (await Deno.readTextFile(habits)) + "\n# EDITED_MARKER\n");
  await Deno.writeTextFile(join(env.repo, "weekly.py"), "def weekly_total():\n    return 7\n");

  const result = await env.review(["--uncommitted"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, TWO_FINDINGS_OUTPUT);
  assert.match(result.stderr, /^Reviewing current changes$/m);
  assert.deepEqual(env.fake.failures, []);
  const body = JSON.stringify(env.fake.requests[0].body);
  assert.match(body, /\+# EDITED_MARKER/);
  assert.match(body, /weekly\.py[^]*\+def weekly_total\(\):/, "the untracked file is in the diff");
  assert.match(body, /You are reviewing a code change/);
  assert.match(body, /read-only/);
});

Deno.test("exec review --commit with a plain-text answer prints it as it is", async () => {
  await using env = await reviewEnv([
    { expect: { user_contains: "introduced by commit" }, reply: { text: "Nothing to flag here." } },
  ]);
  const result = await env.review(["--commit", "HEAD"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Nothing to flag here.\n");
  assert.match(result.stderr, /^Reviewing commit [0-9a-f]{7}: init$/m);
  assert.deepEqual(env.fake.failures, []);
});

Deno.test("exec review --base reviews from the merge base with the flags after review", async () => {
  await using env = await reviewEnv([{ reply: { text: "Fine." } }]);
  const git = (...args: string[]) =>
    run("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], env.repo);
  const base = (await git("rev-parse", "HEAD")).stdout.trim();
  const branch = (await git("rev-parse", "--abbrev-ref", "HEAD")).stdout.trim();
  await git("checkout", "-qb", "topic");
  await Deno.writeTextFile(join(env.repo, "topic.py"), "TOPIC_MARKER = 1\n");
  await git("add", "topic.py");
  await git("commit", "-qm", "topic work");
  const result = await interpreter(
    ["exec", "-c", "model_context_window=64000", "review", "--base", branch, "-m", "fake-model"],
    { cwd: env.repo, home: env.home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, new RegExp(`^Reviewing changes against '${branch}'$`, "m"));
  const body = JSON.stringify(env.fake.requests[0].body);
  assert.match(body, new RegExp(`merge base of HEAD and '${branch}' is commit ${base}`));
  assert.match(body, /\+TOPIC_MARKER = 1/);
});

Deno.test("exec review names a missing, doubled or mismatched target with exit code 2", async () => {
  await using env = await reviewEnv([]);
  const none = await env.review([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^error: Say what to review: --uncommitted, --base BRANCH/m);
  const two = await env.review(["--uncommitted", "--commit", "HEAD"]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /^error: Review one target at a time, not --uncommitted and --commit/m);
  const title = await env.review(["--uncommitted", "--title", "x"]);
  assert.equal(title.code, 2);
  assert.match(title.stderr, /^error: --title goes with --commit SHA/m);
  const clean = await env.review(["--uncommitted"]);
  assert.equal(clean.code, 1);
  assert.match(clean.stderr, /^error: Nothing to review: the working tree has no changes/m);
  assert.equal(env.fake.requests.length, 0);
});

Deno.test("exec review --json sends the rendered review as the one agent_message; -o writes it", async () => {
  await using env = await reviewEnv((repo) => [
    { reply: { text: twoFindings(repo) } },
    { reply: { text: "Plain words." } },
  ]);
  await Deno.writeTextFile(join(env.repo, "weekly.py"), "def weekly_total():\n    return 7\n");
  const out = join(env.repo, "last.txt");
  const result = await env.review(["--uncommitted", "--json", "-o", out]);
  assert.equal(result.code, 0, result.stderr);
  const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(events.map((e) => e.type), [
    "thread.started",
    "turn.started",
    "item.completed",
    "turn.completed",
  ]);
  assert.deepEqual(events[2].item, {
    id: "item_0",
    type: "agent_message",
    text: TWO_FINDINGS_OUTPUT.trimEnd(),
  });
  assert.equal(await Deno.readTextFile(out), TWO_FINDINGS_OUTPUT.trimEnd());

  const before = await interpreter(["exec", "--json", "review", "--commit", "HEAD"], {
    cwd: env.repo,
    home: env.home,
  });
  assert.equal(before.code, 0, before.stderr);
  const message = before.stdout.trim().split("\n").map((line) => JSON.parse(line))
    .find((e) => e.item?.type === "agent_message");
  assert.equal(message.item.text, "Plain words.");
});

/** Config that makes git print a secret from `.git` for each `.py` file, in three ways. */
const PLANTS = {
  filter: { attribute: "filter=evil", key: "filter.evil.clean" },
  textconv: { attribute: "diff=evil", key: "diff.evil.textconv" },
  external: { attribute: "", key: "diff.external" },
};

for (const [plant, { attribute, key }] of Object.entries(PLANTS)) {
  Deno.test(`exec review --uncommitted sends raw contents, not what a planted ${plant} prints`, async () => {
    await using env = await reviewEnv([{ reply: { text: "Fine." } }]);
    const secret = "HOST_SECRET_b2e9";
    const marker = join(env.home, "marker");
    const script = join(env.repo, ".git", "plant.sh");
    await Deno.writeTextFile(join(env.repo, ".git", "secret.txt"), `${secret}\n`);
    await Deno.writeTextFile(
      script,
      `#!/bin/sh\ntouch '${marker}'\ncat "$@" 2>/dev/null\ncat .git/secret.txt\nexit 0\n`,
    );
    await Deno.chmod(script, 0o755);
    if (attribute) {
      await Deno.writeTextFile(join(env.repo, ".gitattributes"), `*.py ${attribute}\n`);
    }
    await run("git", ["config", key, script], env.repo);
    const habits = join(env.repo, "habits.py");
    await Deno.writeTextFile(habits, (await Deno.readTextFile(habits)) + "\n# EDITED_MARKER\n");
    const control = await run("git", ["diff", "HEAD"], env.repo);
    assert.match(control.stdout, new RegExp(secret), "control: plain git diff runs the program");
    await Deno.remove(marker);

    const result = await env.review(["--uncommitted"]);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.stringify(env.fake.requests[0].body);
    assert.match(body, /\+# EDITED_MARKER/);
    assert.doesNotMatch(body, new RegExp(secret));
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
  });
}
