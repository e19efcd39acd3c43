import assert from "node:assert/strict";
import { readSession } from "./read.ts";

const V1 = new URL("../../tests/fixtures/sessions/v1.jsonl", import.meta.url).pathname;

Deno.test("readSession() reads a format 1 file with every event kind (a change to the format fails here)", async () => {
  const session = await readSession(V1);
  assert.equal(session.header.id, "0194a3b2-7c4d-7e5f-8a6b-7c8d9e0f1a2b");
  assert.deepEqual(session.events.map((e) => e.type), [
    "user_message",
    "assistant_message",
    "tool_call",
    "approval",
    "tool_result",
    "model_switch",
    "harness_switch",
    "tool_state",
    "compaction",
    "user_message",
    "assistant_message",
  ]);
  assert.deepEqual(session.history, [
    { role: "user", blocks: [{ type: "text", text: "Summary: the test fails in parse()" }] },
    {
      role: "user",
      blocks: [
        { type: "text", text: "apply the fix" },
        { type: "image", mime: "image/png", base64: "iVBORw0KGgo=" },
      ],
    },
    {
      role: "assistant",
      blocks: [{ type: "thinking", text: "", encrypted: "gAAAAB", id: "rs_1" }, {
        type: "text",
        text: "Fixed.",
      }],
      stop: "end_turn",
      usage: { inputTokens: 400, outputTokens: 10, cachedInputTokens: 100, reasoningTokens: 3 },
    },
  ]);
  const lines = (await Deno.readTextFile(V1)).trimEnd().split("\n").slice(1);
  assert.deepEqual(session.events, lines.map((line) => JSON.parse(line)));
  assert.deepEqual(session.notes, []);
  assert.deepEqual(
    session.toolState,
    lines.map((l) => JSON.parse(l)).find((e) => e.type === "tool_state").state,
  );
});
