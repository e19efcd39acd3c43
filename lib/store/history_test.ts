import assert from "node:assert/strict";
import type { Message } from "../model/message.ts";
import type { SessionRecord, SessionRecordInput } from "./records.ts";
import { INTERRUPTED_RESULT, replayHistory } from "./history.ts";
import { answerEvent, callEvent, resultEvent, resultMessage, userEvent } from "./_testing.ts";

function events(...inputs: SessionRecordInput[]): SessionRecord[] {
  return inputs.map((e) => ({ ...e, ts: "2025-01-02T03:04:05.000Z" }) as SessionRecord);
}

function messageOf(event: SessionRecordInput): Message {
  if (!("message" in event)) throw new TypeError("not a message event");
  return event.message;
}

Deno.test("replayHistory() keeps messages in order and ignores events that are not messages", () => {
  const turn = [userEvent("list files"), callEvent("c1", "ls"), resultEvent("c1", "a.txt")];
  const { messages, interruptedCalls } = replayHistory(events(
    turn[0],
    { type: "model_switch", provider: "openai", model: "gpt-5" },
    turn[1],
    { type: "tool_call", callId: "c1", name: "Bash", args: { command: "ls" } },
    { type: "approval", callId: "c1", decision: "approved" },
    turn[2],
    { type: "harness_switch", harness: "codex" },
    answerEvent("One file."),
  ));
  assert.deepEqual(messages, [...turn, answerEvent("One file.")].map(messageOf));
  assert.deepEqual(interruptedCalls, []);
});

Deno.test("replayHistory() starts again from a compaction's messages", () => {
  const summary: Message = { role: "user", blocks: [{ type: "text", text: "Summary: listed" }] };
  const { messages } = replayHistory(events(
    userEvent("old task"),
    callEvent("c1", "ls"),
    resultEvent("c1", "a.txt"),
    { type: "compaction", messages: [summary, messageOf(userEvent("go on"))], tokensBefore: 9 },
    answerEvent("Done."),
  ));
  assert.deepEqual(messages, [
    summary,
    messageOf(userEvent("go on")),
    messageOf(answerEvent("Done.")),
  ]);
});

Deno.test("replayHistory() gives a tool call without a result an interrupted error result", () => {
  const twoCalls = callEvent("c1", "ls");
  if (twoCalls.type !== "assistant_message") throw new TypeError("expected an assistant event");
  twoCalls.message.blocks.push({ type: "tool_call", id: "c2", name: "Read", args: {} });
  const { messages, interruptedCalls } = replayHistory(events(
    userEvent("task"),
    twoCalls,
    resultEvent("c1", "a.txt"),
    userEvent("next task after a crash"),
    callEvent("c3", "sleep 30"),
  ));
  const interrupted = (callId: string, name: string): Message => ({
    role: "tool_result",
    callId,
    name,
    blocks: [{ type: "text", text: INTERRUPTED_RESULT }],
    isError: true,
  });
  assert.deepEqual(messages.map((m) => m.role === "tool_result" ? m : m.role), [
    "user",
    "assistant",
    resultMessage("c1", "a.txt"),
    interrupted("c2", "Read"),
    "user",
    "assistant",
    interrupted("c3", "Bash"),
  ]);
  assert.deepEqual(interruptedCalls, ["c2", "c3"]);
});

Deno.test("replayHistory() leaves tool_state events out of the messages", () => {
  const turn = [userEvent("plan it"), answerEvent("Planned.")];
  const { messages } = replayHistory(events(
    turn[0],
    { type: "tool_state", state: { version: 1, values: { todos: [] } } },
    turn[1],
    { type: "tool_state", state: { version: 1, values: {} } },
  ));
  assert.deepEqual(messages, turn.map(messageOf));
});
