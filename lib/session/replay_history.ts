/**
 * The conversation as an editor replays it (ACP's `session/load`): the messages of `history()`
 * with each tool call read as the session would run it, by capability id (`fs.edit`,
 * `source:docs/search`) and input, so a front end needs no harness's wire names.
 */
import { resolveCall } from "../harness/call.ts";
import type { Harness } from "../harness/types.ts";
import { SOURCE_CAPABILITY_PREFIX } from "../loop/tool_sources.ts";
import type { Block, Message } from "../model/message.ts";

/** A tool call of the history as the session reads it; neither is set for a call it cannot read. */
export interface ReplayedCall {
  capability?: string;
  /** The input the capability takes (the harness's arguments mapped), when it is known. */
  input?: unknown;
  /** For a `tools.call` call: the deferred tool it ran, read the same way. */
  inner?: { capability: string; input: unknown };
  /** The user stopped it: its result is the harness's text for an interruption. */
  interrupted?: true;
}

/** The conversation and how each of its tool calls (by call id) reads. */
export interface ReplayedHistory {
  messages: Message[];
  calls: Map<string, ReplayedCall>;
}

type ToolCallBlock = Extract<Block, { type: "tool_call" }>;

/** `messages` (a `history()`) with its tool calls read through `harness`, the one in use. */
export function replayedHistory(messages: Message[], harness: Harness): ReplayedHistory {
  const calls = new Map<string, ReplayedCall>();
  for (const message of messages) {
    if (message.role === "tool_result" && message.isError) {
      const call = calls.get(message.callId);
      const text = message.blocks.find((b) => b.type === "text")?.text;
      if (call && text === harness.interruptedText) call.interrupted = true;
    }
    if (message.role !== "assistant") continue;
    for (const block of message.blocks) {
      if (block.type === "tool_call") calls.set(block.id, readCall(block, harness));
    }
  }
  return { messages, calls };
}

/** The call's capability and input as the harness maps it; an MCP tool by its source. */
function readCall(call: ToolCallBlock, harness: Harness): ReplayedCall {
  try {
    const { tool, input } = resolveCall(harness, call);
    return { capability: tool.capability, input, ...innerCall(tool.capability, input, harness) };
  } catch {
    // Not one of the harness's tools (an MCP tool, or arguments it refused).
  }
  const source = call.name.match(/^mcp__(.+?)__(.+)$/);
  return source ? { capability: `${SOURCE_CAPABILITY_PREFIX}${source[1]}/${source[2]}` } : {};
}

/** The deferred tool a `tools.call` call ran, as `{ inner }`; {} for any other call. */
function innerCall(capability: string, input: unknown, harness: Harness) {
  const { name, arguments: args } = (input ?? {}) as { name?: unknown; arguments?: unknown };
  if (capability !== "tools.call" || typeof name !== "string") return {};
  try {
    const inner = resolveCall(harness, { name, args: args ?? {} });
    return { inner: { capability: inner.tool.capability, input: inner.input } };
  } catch {
    return {};
  }
}
