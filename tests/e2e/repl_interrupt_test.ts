import assert from "node:assert/strict";
import { join } from "node:path";
import { type ScriptTurn } from "../fake_provider/server.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { until } from "./_poll.ts";

/** The command the model runs to be interrupted: it leaves a file once it has started. */
const LONG = "touch started.flag; sleep 30";

const setup = (turns: ScriptTurn[], harness: string) =>
  replEnv(turns, { config: `harness = "${harness}"` });

/** Waits until the long command is running (its file exists). */
async function started(repo: string, pane: Pane): Promise<void> {
  await until(
    "the command to start",
    () => Deno.stat(join(repo, "started.flag")).then(() => true, () => false),
    15_000,
  ).catch(async (error) => {
    throw new Error(`${error.message}:\n${await pane.screen()}`);
  });
}

/** Stops the running command with `key`, then checks what the user and the model are shown. */
async function interruptAndAsk(
  env: Awaited<ReturnType<typeof setup>>,
  pane: Pane,
  key: string,
  from: number,
): Promise<void> {
  await started(env.repo, pane);
  await pane.key(key);
  const out = await pane.settled(from);
  assert.match(out, /✗ interrupted\n[\s\S]*Interrupted/);
  const next = await pane.mark();
  await pane.type("what happened?");
  assert.match(await pane.settled(next), /You stopped me\./);
  assert.deepEqual(env.fake.failures, [], "the next request carries the harness's text");
  assert.doesNotMatch(JSON.stringify(env.fake.requests.map((r) => r.body)), /AbortError/);
  await pane.key("C-d");
  await pane.waitFor(/^EXIT:0$/m, next);
}

Deno.test({
  name: "Esc stops a running command (native), and arrow keys during a command do not" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "sleep 2; echo slept" } }] } },
      {
        expect: { last_tool_result_contains: "slept" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: LONG } }] },
      },
      {
        expect: { last_tool_result_contains: "command aborted by user" },
        reply: { text: "You stopped me." },
      },
    ], "native");
    await using pane = await Pane.open(["--yolo"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("sleep twice");
    await pane.waitFor(/\$ sleep 2; echo slept/, from);
    // They wait for the next prompt, like any key typed during a turn (where Up would recall).
    for (const arrow of ["Left", "Right", "Left", "Right"]) await pane.key(arrow);
    const first = await pane.waitFor(/✓ exit 0/, from);
    assert.doesNotMatch(first, /interrupted/i, "an arrow key is not Esc");
    await interruptAndAsk(env, pane, "Escape", from);
  },
});

Deno.test({
  name: "Ctrl-C stops a running command (claude-code); the model reads Claude Code's text" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      { reply: { tool_calls: [{ name: "Bash", args: { command: LONG } }] } },
      {
        expect: { last_tool_result_contains: "[Request interrupted by user for tool use]" },
        reply: { text: "You stopped me." },
      },
    ], "claude-code");
    await using pane = await Pane.open(["--yolo"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("sleep a while");
    await interruptAndAsk(env, pane, "C-c", from);
  },
});
