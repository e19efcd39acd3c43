/** The loop runs every call through the hook chain and names none of its links. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import { type Message, textOf } from "../model/message.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { runTurn } from "./agent_loop.ts";
import type { ToolHook } from "./tool_hooks.ts";
import { call, freshState, scriptedProvider, testContext } from "./_test_loop.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

async function turn(replies: Parameters<typeof scriptedProvider>[0], hooks: ToolHook[]) {
  const cwd = await Deno.makeTempDir({ prefix: "oi_chain_" });
  try {
    const harness = await loadHarness("native", { builtinDir: HARNESSES });
    const { provider } = scriptedProvider(replies);
    const state = freshState();
    const signal = new AbortController().signal;
    const outcome = await runTurn(state, {
      provider,
      harness,
      ctx: testContext(cwd, signal, inProcessFs),
      emit: () => {},
      toolHooks: () => hooks,
      signal,
    });
    const results = state.messages.filter((m): m is Message & { role: "tool_result" } =>
      m.role === "tool_result"
    );
    return {
      outcome,
      results: results.map((r) => ({ text: textOf(r.blocks), isError: r.isError })),
    };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

const done = [{ type: "text" as const, text: "done" }];

Deno.test("runTurn() runs a link's rewrite and adds the after links' notes to the result", async () => {
  const { results } = await turn([[call("c1", "exec_command", { cmd: "echo one" })], done], [
    {
      name: "rewrite",
      before: (c) =>
        Promise.resolve({
          action: "rewrite",
          input: { ...c.input as object, command: "echo two" },
        }),
    },
    {
      name: "note",
      after: () => Promise.resolve({ action: "append", text: "A note for the model" }),
    },
  ]);
  assert.equal(results.length, 1);
  assert.match(results[0].text, /\btwo\b/);
  assert.doesNotMatch(results[0].text, /\bone\b/);
  assert.ok(results[0].text.endsWith("\n\nA note for the model"), results[0].text);
});

Deno.test("runTurn() refuses a rewrite the capability cannot run with, and runs nothing", async () => {
  const { results } = await turn([[call("c1", "exec_command", { cmd: "echo one" })], done], [{
    name: "broken",
    before: () => Promise.resolve({ action: "rewrite", input: { command: 42 } }),
  }]);
  assert.equal(results[0].isError, true);
  assert.match(
    results[0].text,
    /The broken hook rewrote the input of exec_command into one it cannot run with/,
  );
});

Deno.test("runTurn() ends the turn on a link's stop and answers the later calls with its reason", async () => {
  const outcome = { status: "step_limit", limit: 7 } as const;
  const { outcome: ended, results } = await turn([[
    call("c1", "exec_command", { cmd: "echo one" }),
    call("c2", "exec_command", { cmd: "echo two" }),
  ], done], [{
    name: "stopper",
    after: () => Promise.resolve({ action: "stop", outcome, reason: "enough" }),
  }]);
  assert.deepEqual(ended, outcome);
  assert.equal(results.length, 2, "every call has its result");
  assert.match(results[0].text, /one/);
  assert.deepEqual(results[1], { text: "Not run: enough", isError: true });
});
