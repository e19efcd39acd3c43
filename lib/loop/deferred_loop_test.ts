import { allowAll } from "./_test_loop.ts";
import assert from "node:assert/strict";
import { DEFERRED_FILES, DEFERRED_SPEC } from "../harness/_test_deferred.ts";
import { loadTestHarness } from "../harness/_test_harness.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";
import { textOf } from "../model/message.ts";
import { runTurn } from "./agent_loop.ts";
import { call, freshState, scriptedProvider } from "./_test_loop.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

Deno.test("runTurn() sends a deferred tool only after a tool search loads it", async () => {
  const harness = await loadTestHarness(DEFERRED_SPEC, DEFERRED_FILES, "d");
  await using ws = await tempWorkspace();
  const { provider, requests } = scriptedProvider([
    [call("c1", "ToolSearch", { query: "select:later,Ghost" })],
    [
      call("c2", "later", { command: "echo hi" }),
      call("c3", "tool_call", {
        name: "Plan",
        arguments: { plan: [{ step: "ship", status: "in_progress" }] },
      }),
    ],
    [{ type: "text", text: "done" }],
  ]);
  const toolState = new Map<string, unknown>();
  const state = freshState();
  const signal = new AbortController().signal;
  const outcome = await runTurn(state, {
    toolHooks: allowAll,
    provider,
    harness,
    ctx: {
      cwd: ws.dir,
      signal,
      env: { PATH: Deno.env.get("PATH") ?? "" },
      state: toolState,
      fs: inProcessFs,
    },
    emit: () => {},
    signal,
  });
  assert.equal(outcome.status, "completed");
  const names = requests.map((r) => r.tools.map((t) => t.name));
  assert.deepEqual(names[0], ["run", "ToolSearch", "tool_call"]);
  assert.deepEqual(names[1], ["run", "ToolSearch", "tool_call", "later"]);
  assert.deepEqual(names[2], names[1]);
  assert.equal(requests[1].tools[3].description, "The later tool.");
  const results = state.messages.flatMap((m) =>
    m.role === "tool_result" ? [[m.callId, textOf(m.blocks), m.isError]] : []
  );
  assert.deepEqual(results, [
    ["c1", "Loaded: later\nUnknown: Ghost", false],
    ["c2", "later said hi\n", false],
    ["c3", "Plan updated", false],
  ]);
  assert.deepEqual(toolState.get("plan"), [{ step: "ship", status: "in_progress" }]);
});
