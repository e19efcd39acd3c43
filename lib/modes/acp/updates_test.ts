import assert from "node:assert/strict";
import type { SessionEvent } from "../../session/open.ts";
import { SessionUpdates } from "./updates.ts";

const call = { id: "call_1", name: "exec_command", args: { cmd: "ls" } };
const started: SessionEvent = {
  type: "tool_start",
  call,
  capability: "shell.run",
  input: { command: "ls" },
};
const ended: SessionEvent = {
  type: "tool_end",
  call,
  capability: "shell.run",
  output: { command: "ls", exitCode: 0, output: "a\nb\n" },
  text: "a\nb",
  isError: false,
};

Deno.test("SessionUpdates gives a call id used again in a later turn an id of its own", () => {
  const updates = new SessionUpdates({ showReasoning: true });
  const first = updates.map(started);
  assert.equal(updates.toolCallId("call_1"), "call_1");
  updates.map(ended);
  const second = updates.map(started);
  assert.deepEqual([first[0], second[0]].map((u) => "toolCallId" in u && u.toolCallId), [
    "call_1",
    "call_1-2",
  ]);
  assert.equal(updates.toolCallId("call_1"), "call_1-2");
  assert.deepEqual(updates.map(ended)[0], {
    sessionUpdate: "tool_call_update",
    toolCallId: "call_1-2",
    title: "ls",
    kind: "execute",
    locations: [],
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: "```\na\nb\n```" } }],
  });
});

Deno.test("SessionUpdates streams a command's output as it grows", () => {
  const updates = new SessionUpdates({ showReasoning: true, idPrefix: "r-" });
  assert.deepEqual(updates.map(started)[0], {
    sessionUpdate: "tool_call",
    toolCallId: "r-call_1",
    title: "ls",
    kind: "execute",
    locations: [],
    status: "in_progress",
    rawInput: { command: "ls" },
  });
  updates.map({ type: "tool_progress", callId: "call_1", stream: "stdout", text: "a\n" });
  const [grown] = updates.map({
    type: "tool_progress",
    callId: "call_1",
    stream: "stderr",
    text: "b\n",
  });
  assert.deepEqual(grown, {
    sessionUpdate: "tool_call_update",
    toolCallId: "r-call_1",
    content: [{ type: "content", content: { type: "text", text: "```\na\nb\n```" } }],
  });
});

Deno.test("SessionUpdates sends deltas as chunks, reasoning only when shown, and plans", () => {
  const shown = new SessionUpdates({ showReasoning: true });
  const hidden = new SessionUpdates({ showReasoning: false, hideText: true });
  const thinking: SessionEvent = { type: "thinking_delta", text: "hm" };
  const text: SessionEvent = { type: "text_delta", text: "hi" };
  assert.deepEqual(shown.map(thinking), [
    { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } },
  ]);
  assert.deepEqual(shown.map(text), [
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
  ]);
  assert.deepEqual([...hidden.map(thinking), ...hidden.map(text)], []);
  const plan = { id: "p", name: "update_plan", args: {} };
  const input = { plan: [{ step: "Fix it", status: "pending" }] };
  shown.map({ type: "tool_start", call: plan, capability: "plan.update", input });
  const out = shown.map({
    type: "tool_end",
    call: plan,
    capability: "plan.update",
    output: input,
    text: "Plan updated",
    isError: false,
  });
  assert.deepEqual(out.at(-1), {
    sessionUpdate: "plan",
    entries: [{ content: "Fix it", priority: "medium", status: "pending" }],
  });
});
