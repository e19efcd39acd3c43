/**
 * The loop gives each call its own `callId` and `progress`, and a slow command's output reaches
 * the front end as `tool_progress` events while it runs, never after its `tool_end`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { runTurn } from "./agent_loop.ts";
import type { LoopEvent } from "./events.ts";
import { allowAll, call, freshState, scriptedProvider, testContext } from "./_test_loop.ts";
import { until } from "../../tests/e2e/_poll.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

Deno.test("runTurn() emits tool_progress from a slow command before the command ends", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "oi_progress_" });
  try {
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const command = "echo started; while [ ! -e go ]; do sleep 0.02; done; echo finished";
    const { provider } = scriptedProvider([
      [call("c1", "exec_command", { cmd: command })],
      [{ type: "text", text: "done" }],
    ]);
    const events: LoopEvent[] = [];
    const signal = new AbortController().signal;
    const turn = runTurn(freshState(), {
      provider,
      harness,
      ctx: testContext(cwd, signal, inProcessFs),
      emit: (e) => events.push(e),
      toolHooks: allowAll,
      signal,
    });
    const progress = () =>
      events.filter((e): e is Extract<LoopEvent, { type: "tool_progress" }> =>
        e.type === "tool_progress"
      );
    await until("the first line", () => progress().some((e) => e.text.includes("started")));
    assert.deepEqual(progress()[0], {
      type: "tool_progress",
      callId: "c1",
      stream: "stdout",
      text: "started\n",
    });
    assert.ok(!events.some((e) => e.type === "tool_end"), "the call has not ended");
    assert.equal(existsSync(join(cwd, "go")), false);
    await Deno.writeTextFile(join(cwd, "go"), "");
    const outcome = await turn;
    assert.equal(outcome.status, "completed");
    const types = events.map((e) => e.type);
    assert.ok(
      types.lastIndexOf("tool_progress") < types.indexOf("tool_end"),
      `no progress after the end: ${types.join(", ")}`,
    );
    const text = progress().map((e) => e.text).join("");
    assert.equal(text, "started\nfinished\n");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
