/** Helpers for the tests in this folder: a temporary home and realistic events. */
import type { Message } from "../model/message.ts";
import type { SessionRecordInput } from "./records.ts";
import type { SessionHeaderInput } from "./store.ts";

/** A temporary config home, removed on dispose. */
export async function tempHome(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "session_test_" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** A header for a REPL session in `cwd`. */
export function testHeader(overrides: Partial<SessionHeaderInput> = {}): SessionHeaderInput {
  return {
    cwd: "/work/project",
    model: "qwen3-coder:30b",
    provider: "ollama",
    harness: "claude_code",
    sandbox: "workspace-write",
    approval: "on-request",
    origin: "repl",
    ...overrides,
  };
}

/** A user message event. */
export function userEvent(text: string): SessionRecordInput {
  return { type: "user_message", message: { role: "user", blocks: [{ type: "text", text }] } };
}

/** An assistant message that reasons (with a signature) and calls a tool `callId`. */
export function callEvent(callId: string, command: string): SessionRecordInput {
  return {
    type: "assistant_message",
    message: {
      role: "assistant",
      blocks: [
        { type: "thinking", text: "Look at the files first.", signature: `sig-${callId}` },
        { type: "text", text: "Listing files." },
        { type: "tool_call", id: callId, name: "Bash", args: { command } },
      ],
      stop: "tool_calls",
      usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1000, reasoningTokens: 8 },
    },
  };
}

/** The tool result message for `callId`. */
export function resultMessage(
  callId: string,
  text: string,
): Extract<Message, { role: "tool_result" }> {
  return {
    role: "tool_result",
    callId,
    name: "Bash",
    blocks: [{ type: "text", text }],
    isError: false,
  };
}

/** The tool result event for `callId`. */
export function resultEvent(callId: string, text: string): SessionRecordInput {
  return { type: "tool_result", message: resultMessage(callId, text), durationMs: 12 };
}

/** A final assistant answer. */
export function answerEvent(text: string): SessionRecordInput {
  return {
    type: "assistant_message",
    message: {
      role: "assistant",
      blocks: [{ type: "text", text }],
      stop: "end_turn",
      usage: { inputTokens: 1500, outputTokens: 20, cachedInputTokens: 1200, reasoningTokens: 0 },
    },
  };
}
