/**
 * Compaction: when the history nears the model's window, one request asks the model to
 * summarize the work so far, and the history becomes that summary plus the latest user message.
 */
import type { LoopState } from "../loop/agent_loop.ts";
import { type Message, textOf } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";

/** When no window is configured; most current models have at least this much. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** The share of the window at which a session compacts unless a limit is configured. */
const AUTO_COMPACT_SHARE = 0.85;

const SUMMARY_REQUEST =
  "The conversation is about to be shortened to save context. Write a summary that lets you " +
  "carry on without it: the user's task and constraints, what you found (files, functions, " +
  "causes), what you changed and why, commands that passed or failed, and what is left to " +
  "do next. Be specific (paths, names, exact errors). Reply with the summary only.";

/** The token count at which the session compacts. */
export function compactLimit(window: number, configured: number | undefined): number {
  return configured ?? Math.floor(window * AUTO_COMPACT_SHARE);
}

/**
 * Tokens the next request will carry: the last reply's reported input and output, plus an
 * estimate (4 characters a token) for what came after it; an estimate of everything when no
 * usage was reported.
 */
export function contextTokens(state: LoopState): number {
  const messages = state.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== "assistant" || !message.usage) continue;
    const reported = message.usage.inputTokens + message.usage.outputTokens;
    if (reported > 0) return reported + estimate(messages.slice(i + 1));
  }
  return estimate(messages) + Math.ceil(state.system.length / 4);
}

function estimate(messages: Message[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.blocks).length;
  return Math.ceil(chars / 4);
}

/**
 * Replaces `state.messages` with a summary of them and the most recent user message. Returns the
 * new history, or throws the provider's failure (the history is then left as it was).
 */
export async function compactHistory(
  state: LoopState,
  provider: Provider,
  signal: AbortSignal,
): Promise<Message[]> {
  const request = {
    model: state.model,
    system: state.system,
    messages: [...state.messages, {
      role: "user" as const,
      blocks: [{ type: "text" as const, text: SUMMARY_REQUEST }],
    }],
    tools: [],
  };
  let summary: string | undefined;
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "error") {
      throw new Error(`Cannot compact the history: ${event.error.message}`);
    }
    if (event.type === "done") summary = textOf(event.blocks).trim();
  }
  if (!summary) throw new Error("Cannot compact the history: the model sent no summary");
  const lastUser = state.messages.findLast((m) => m.role === "user");
  const compacted: Message[] = [
    {
      role: "user",
      blocks: [{ type: "text", text: `Summary of the work so far:\n\n${summary}` }],
    },
    ...(lastUser ? [lastUser] : []),
  ];
  state.messages.splice(0, state.messages.length, ...compacted);
  return compacted;
}
