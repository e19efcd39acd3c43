/** Block assembly shared by the wire adapters: streamed deltas in, finished blocks out. */
import type { Block, StopReason, Usage } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";

/** A tool call block. */
export type ToolCallBlock = Extract<Block, { type: "tool_call" }>;

/** A text or thinking block. */
export type TextLikeBlock = Extract<Block, { type: "text" | "thinking" }>;

/** Appends streamed text to the last block when it has the same kind, else starts a new block. */
export function appendText(blocks: Block[], kind: "text" | "thinking", text: string): void {
  const last = blocks.at(-1);
  if (last?.type === kind) last.text += text;
  else blocks.push({ type: kind, text });
}

/** The event that reports a streamed piece of text or thinking. */
export function deltaEvent(kind: "text" | "thinking", text: string): StreamEvent {
  return kind === "text" ? { type: "text_delta", text } : { type: "thinking_delta", text };
}

/** A new tool call block whose arguments arrive as a JSON string. */
export function newToolCall(id: string, name: string, rawArgs = ""): ToolCallBlock {
  return { type: "tool_call", id, name, args: undefined, rawArgs };
}

/**
 * Parses the accumulated arguments of a tool call. Empty arguments mean `{}`; arguments that are
 * not valid JSON keep `rawArgs` and leave `args` undefined, so the loop can report the problem.
 */
function settleArgs(call: ToolCallBlock): void {
  const raw = call.rawArgs ?? "";
  try {
    call.args = raw.trim() === "" ? {} : JSON.parse(raw);
    delete call.rawArgs;
  } catch {
    call.args = undefined;
  }
}

/** The arguments to send back for a tool call: invalid arguments are replayed as `{}`. */
export function replayArgs(call: ToolCallBlock): Record<string, unknown> {
  const args = call.args;
  return args !== null && typeof args === "object" && !Array.isArray(args)
    ? args as Record<string, unknown>
    : {};
}

/** Keeps blocks worth storing: drops empty text and empty unsigned thinking. */
function keep(block: Block): boolean {
  // An empty text part can carry a Gemini thought signature, which must go back.
  if (block.type === "text") return block.text !== "" || block.signature !== undefined;
  if (block.type === "thinking") {
    return block.text !== "" || block.signature !== undefined || block.encrypted !== undefined;
  }
  return true;
}

/**
 * The final `done` event: settles tool arguments and infers `tool_calls` from the blocks. A
 * refusal ends the turn, so it keeps no tool calls (they would go unanswered).
 */
export function doneEvent(blocks: Block[], stop: StopReason, usage: Usage): StreamEvent {
  const kept = blocks.filter((b) => keep(b) && (stop !== "refusal" || b.type !== "tool_call"));
  for (const block of kept) if (block.type === "tool_call" && !block.freeform) settleArgs(block);
  const hasCalls = kept.some((b) => b.type === "tool_call");
  let finalStop = stop;
  if (hasCalls && stop === "end_turn") finalStop = "tool_calls";
  if (!hasCalls && stop === "tool_calls") finalStop = "end_turn";
  return { type: "done", blocks: kept, stop: finalStop, usage };
}

/** The `done` event after an abort: the text and thinking so far, without unfinished tool calls. */
export function abortedEvent(blocks: Block[], usage: Usage): StreamEvent {
  const kept = blocks.filter((b) => b.type !== "tool_call" && keep(b));
  return { type: "done", blocks: kept, stop: "aborted", usage };
}

/** A number from an unknown wire value, or 0. */
export function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A record view of an unknown wire value. */
export function rec(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" ? value as Record<string, unknown> : {};
}

/** A string from an unknown wire value, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
