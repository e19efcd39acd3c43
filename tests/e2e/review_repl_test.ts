import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

function finding(repo: string): string {
  return JSON.stringify({
    findings: [{
      title: "Compare whole dates, not day numbers",
      body: "A streak across a month end resets.",
      confidence_score: 0.9,
      priority: 1,
      code_location: {
        absolute_file_path: join(repo, "habits.py"),
        line_range: { start: 13, end: 14 },
      },
    }],
    overall_correctness: "patch is incorrect",
    overall_explanation: "Month boundaries break streaks.",
    overall_confidence_score: 0.8,
  });
}

Deno.test({
  name: "/review picks a target, reviews it in a fresh read-only session and leaves the " +
    "conversation as it was" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const repo = await Deno.realPath(await fixtureRepo("habits"));
    await using fake = startFakeProvider([
      { expect: { user_contains: "hello there" }, reply: { text: "Hi." } },
      {
        expect: {
          user_contains: "staged, unstaged and untracked",
          system_contains: "You are reviewing a code change",
        },
        reply: { text: finding(repo) },
      },
      {
        expect: { user_contains: "introduced by commit" },
        reply: { text: "The first commit looks fine." },
      },
      { expect: { user_contains: "and now" }, reply: { text: "Back to work." } },
    ]);
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      await Deno.writeTextFile(join(repo, "streaks.py"), "UNTRACKED_MARKER = 1\n");
      await using pane = await Pane.open(["-s", "workspace-write"], { repo, home });
      await pane.waitFor(PROMPT_LINE);
      let from = await pane.mark();
      await pane.type("hello there");
      await pane.settled(from);

      from = await pane.mark();
      await pane.type("/review");
      await pane.waitFor(
        /Review what\?[^]*2 {2}uncommitted changes[^]*Number \(Enter to cancel\)/,
        from,
      );
      await pane.type("2");
      let out = await pane.settled(from);
      assert.match(out, /Reviewing current changes/);
      assert.match(
        out,
        /Month boundaries break streaks\.\n\nhabits\.py:13-14 {2}\[P1\] {2}Compare whole dates, not day numbers\n {4}A streak across a month end resets\.\n\nVerdict: patch is incorrect \(confidence 0\.80\)/,
      );
      assert.doesNotMatch(out, /overall_correctness/, "the raw JSON is not shown");
      const review = JSON.stringify(fake.requests[1].body);
      assert.match(review, /\+UNTRACKED_MARKER = 1/);
      assert.match(review, /read-only/);
      assert.doesNotMatch(review, /hello there/, "the review starts from a fresh history");

      from = await pane.mark();
      await pane.type("/review");
      await pane.waitFor(/Number \(Enter to cancel\)/, from);
      await pane.type("3");
      await pane.waitFor(/ 1 {2}[0-9a-f]{7} {2}init[^]*Commit: number or SHA/, from);
      await pane.type("1");
      out = await pane.settled(from);
      assert.match(out, /Reviewing commit [0-9a-f]{7}: init/);
      assert.match(out, /The first commit looks fine\./);

      from = await pane.mark();
      await pane.type("and now");
      out = await pane.settled(from);
      assert.match(out, /Back to work\./);
      const last = JSON.stringify(fake.requests.at(-1)!.body);
      assert.match(last, /hello there[^]*Hi\.[^]*and now/);
      assert.doesNotMatch(last, /You are reviewing a code change|UNTRACKED_MARKER/);
      assert.deepEqual(fake.failures, []);

      await pane.type("/exit");
      await pane.waitFor(/^EXIT:0$/m, from);
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
