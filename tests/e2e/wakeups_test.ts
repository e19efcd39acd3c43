import assert from "node:assert/strict";
import { interpreter } from "./_harness_env.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const wakeup = (delaySeconds: number, prompt: string) => ({
  reply: {
    tool_calls: [{
      name: "ScheduleWakeup",
      args: { delaySeconds, reason: "the build needs a moment", prompt },
    }],
  },
});

Deno.test({
  name: "a wake-up fires in the REPL once it is idle, and runs its prompt as the next turn" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      { expect: { user_contains: "watch the build" }, ...wakeup(1, "check on the build") },
      { reply: { text: "I will check back." } },
      { expect: { user_contains: "check on the build" }, reply: { text: "The build passed." } },
    ]);
    const { fake, repo, home } = env;
    await using pane = await Pane.open(["--harness", "claude-code"], { repo, home });
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("watch the build");
    // Nothing more is typed: the wake-up starts the next turn by itself.
    const out = await pane.waitFor(
      /I will check back\.[\s\S]*wake-up [0-9a-f]{8} fired: the build needs a moment[\s\S]*The build passed\.[\s\S]*^› $/m,
      from,
    );
    assert.match(out, /› check on the build/);
    assert.deepEqual(fake.failures, []);
    assert.equal(fake.remaining(), 0);
    // The user's own goal (/goal), shown by /goal and /status.
    let at = await pane.mark();
    await pane.type("/goal ship the release");
    await pane.waitFor(/Goal \(active, 0 tokens\): ship the release[\s\S]*^› $/m, at);
    at = await pane.mark();
    await pane.type("/status");
    await pane.waitFor(/goal: +active, 0 tokens: ship the release[\s\S]*^› $/m, at);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test("exec runs a wake-up's prompt only with --wait-wakeups; without it lists it", async () => {
  await using env = await replEnv([
    wakeup(0.3, "check on the build"),
    { reply: { text: "scheduled" } },
    { expect: { user_contains: "check on the build" }, reply: { text: "The build passed." } },
    wakeup(60, "look again"),
    { reply: { text: "scheduled again" } },
  ]);
  const { fake, repo, home } = env;
  const args = ["exec", "--harness", "claude-code", "--skip-git-repo-check"];
  const waited = await interpreter([...args, "--wait-wakeups", "watch"], { cwd: repo, home });
  assert.equal(waited.code, 0, waited.stderr);
  assert.equal(waited.stdout, "The build passed.\n");
  assert.match(waited.stderr, /wake-up [0-9a-f]{8} fired: the build needs a moment/);
  assert.doesNotMatch(waited.stderr, /pending timers/);
  const listed = await interpreter([...args, "watch"], { cwd: repo, home });
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout, "scheduled again\n");
  assert.match(
    listed.stderr,
    /pending timers \(not run: pass --wait-wakeups to wait for wake-ups\):\n {2}[0-9a-f]{8} wakeup at .* \(in (59|60)s\): look again/,
  );
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});
