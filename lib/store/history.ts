/** Rebuilds the conversation the loop continues from, out of a session's events. */
import type { Message } from "../model/message.ts";
import type { SessionRecord } from "./records.ts";

/** The result text given to a tool call that has none in the file. */
export const INTERRUPTED_RESULT =
  "Interrupted: the session stopped before this tool call returned a result";

/** The replayed history, and the ids of tool calls given an interrupted result. */
export interface ReplayedHistory {
  messages: Message[];
  interruptedCalls: string[];
}

/**
 * Replays `events` in order: user, assistant and tool result messages are appended, and a
 * compaction or history record replaces everything before it with its messages. Other events (approvals,
 * switches, `tool_state`) are not messages and leave the history as it is. A tool call left without a result
 * (the process stopped mid-turn) gets an error result with `INTERRUPTED_RESULT`, placed after
 * the results its turn has, so that every request built from the history is valid.
 */
export function replayHistory(events: readonly SessionRecord[]): ReplayedHistory {
  let messages: Message[] = [];
  for (const event of events) {
    if (event.type === "compaction" || event.type === "history") messages = [...event.messages];
    else if (
      event.type === "user_message" || event.type === "assistant_message" ||
      event.type === "tool_result"
    ) {
      messages.push(event.message);
    }
  }
  return answerPendingCalls(messages);
}

function answerPendingCalls(messages: Message[]): ReplayedHistory {
  const out: Message[] = [];
  const interruptedCalls: string[] = [];
  const pending = new Map<string, string>();
  const flush = () => {
    for (const [callId, name] of pending) {
      out.push({
        role: "tool_result",
        callId,
        name,
        blocks: [{ type: "text", text: INTERRUPTED_RESULT }],
        isError: true,
      });
      interruptedCalls.push(callId);
    }
    pending.clear();
  };
  for (const message of messages) {
    if (message.role === "tool_result") {
      pending.delete(message.callId);
      out.push(message);
      continue;
    }
    flush();
    out.push(message);
    if (message.role !== "assistant") continue;
    for (const block of message.blocks) {
      if (block.type === "tool_call") pending.set(block.id, block.name);
    }
  }
  flush();
  return { messages: out, interruptedCalls };
}
