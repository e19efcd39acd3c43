/**
 * The summary request of a compaction, made to fit the model's window. When the history and the
 * request for a summary fit, they go as one request, exactly as the conversation stood (so the
 * provider's prompt cache still applies). When they do not (a small local window, or one long
 * tool output that arrived after the last check), the history is written out as a plain
 * transcript and summarised in parts, oldest first: each part's request carries the summary of
 * the parts before it, so the last reply summarises everything, and every request, its reply
 * included, stays inside the window.
 */
import {
  promptMessages,
  type SessionContext,
  withOpeningContext,
  withoutContext,
} from "../harness/context.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import { joinedSystem, type Message, type ModelRequest, textOf } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** The window a compaction must fit in, and how it counts. */
export interface CompactionWindow {
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The most the model may answer (the catalog's output limit), when known. */
  maxOutput?: number;
  /** Tokens of a text, as the session estimates them. */
  count: TokenCounter;
  /** Tokens of the messages as sent, as the session estimates them. */
  countMessages: (messages: Message[]) => number;
  /** Set when `count` is the rough one (4 characters a token), not a tokenizer. */
  rough?: boolean;
}

/** Tokens kept free for the summary in a request sent in parts. */
function summaryRoom(window: Pick<CompactionWindow, "contextWindow" | "maxOutput">) {
  const share = Math.floor(window.contextWindow * 0.15);
  return Math.min(Math.max(share, 256), 4096, window.maxOutput ?? Infinity);
}

/**
 * The input tokens a summary request may hold: the window less the room for the reply and a
 * margin for what an estimate misses (each wire's framing, a tokenizer that counts more).
 */
function inputRoom(window: Pick<CompactionWindow, "contextWindow" | "maxOutput">) {
  return window.contextWindow - summaryRoom(window) - Math.ceil(window.contextWindow * 0.1);
}

/**
 * Asks `provider` for a summary of `state.messages` with the request `prompt`: in one request
 * when it fits `window` (or no window is given), else in parts. A request the provider refuses
 * as too long (the estimate counted short) is sent again in parts, then in parts half as big.
 * Throws the provider's failure.
 */
export async function askSummary(
  state: LoopState,
  provider: Provider,
  signal: AbortSignal,
  prompt: string,
  window?: CompactionWindow,
): Promise<string> {
  const ask = { role: "user" as const, blocks: [{ type: "text" as const, text: prompt }] };
  const whole = [...state.messages, ask];
  if (!window) {
    return await oneSummary(provider, signal, { ...baseRequest(state), messages: whole });
  }
  const inParts = (share: number) => summaryInParts(state, provider, signal, prompt, window, share);
  try {
    if (requestTokens(state, whole, window) > inputRoom(window)) return await inParts(1);
    return await oneSummary(provider, signal, { ...baseRequest(state), messages: whole });
  } catch (error) {
    if (!(error instanceof TooLong)) throw error;
  }
  return await inParts(0.5).catch((error) => {
    if (error instanceof TooLong) return inParts(0.25);
    throw error;
  });
}

/** The provider refused a summary request as longer than the model's window. */
class TooLong extends Error {}

/** An HTTP 413, or a 400 whose message speaks of the context or of tokens (each vendor's words). */
const TOO_LONG = /context|token|too long|too large|exceed/i;

function baseRequest(state: LoopState): ModelRequest {
  return { model: state.model, system: state.system, messages: [], tools: [] };
}

function requestTokens(state: LoopState, messages: Message[], window: CompactionWindow): number {
  return window.count(joinedSystem(state.system)) + window.countMessages(messages);
}

async function oneSummary(
  provider: Provider,
  signal: AbortSignal,
  request: ModelRequest,
): Promise<string> {
  let summary: string | undefined;
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "error") {
      const { status, message } = event.error;
      const tooLong = status === 413 || (status === 400 && TOO_LONG.test(message));
      throw new (tooLong ? TooLong : Error)(`Cannot compact the history: ${message}`);
    }
    if (event.type === "done") summary = textOf(event.blocks).trim();
  }
  if (!summary) throw new Error("Cannot compact the history: the model sent no summary");
  return summary;
}

const PARTS_OPENING = "The conversation so far is too long to summarize at once, so it comes " +
  "in parts, oldest first, written out as a transcript.";

/** The rolling summary: each part is summarised together with the summary of those before it. */
async function summaryInParts(
  state: LoopState,
  provider: Provider,
  signal: AbortSignal,
  prompt: string,
  window: CompactionWindow,
  share: number,
): Promise<string> {
  // A model's own tokenizer may count a quarter more than the rough estimate (code, other
  // languages): parts are sized for that.
  const count: TokenCounter = window.rough
    ? (t) => Math.ceil(window.count(t) * 1.25)
    : window.count;
  const fixed = count(joinedSystem(state.system)) + count(prompt) + count(PARTS_OPENING) + 64;
  const room = Math.floor(inputRoom(window) * share) - fixed;
  if (room < 256) {
    throw new Error(
      `Cannot compact the history: the system prompt and the summary request leave too little ` +
        `of the ${window.contextWindow}-token window for the conversation; set ` +
        "model_context_window to the model's real window or choose a harness with a shorter " +
        "system prompt",
    );
  }
  const pieces = transcript(withoutContext(state.messages));
  let summary = "";
  for (let part = 1, next = 0; next < pieces.length; part++) {
    // The summary so far never takes more than half the room.
    summary = cut(summary, Math.floor(room / 2), count);
    let left = room - count(summary);
    const taken: string[] = [];
    while (next < pieces.length) {
      const piece = taken.length === 0 ? cut(pieces[next], left, count) : pieces[next];
      const tokens = count(piece) + 2;
      if (taken.length > 0 && tokens > left) break;
      taken.push(piece);
      left -= tokens;
      next++;
    }
    const text = `${PARTS_OPENING}\n\n` +
      (summary ? `Summary of the parts before this one:\n\n${summary}\n\n` : "") +
      `Part ${part}${next === pieces.length ? " (the last)" : ""}:\n\n${taken.join("\n\n")}`;
    summary = await oneSummary(provider, signal, {
      ...baseRequest(state),
      messages: [{
        role: "user",
        blocks: [{ type: "text", text }, { type: "text", text: prompt }],
      }],
      maxOutputTokens: summaryRoom(window),
    });
  }
  return summary;
}

/** Each message as a paragraph of a plain transcript, in order. */
export function transcript(messages: Message[]): string[] {
  return messages.flatMap((m): string[] => {
    const lines: string[] = [];
    for (const block of m.blocks) {
      if (block.type === "text" && block.text.trim()) lines.push(block.text);
      if (block.type === "image") lines.push(`[an image (${block.mime})]`);
      if (block.type === "tool_call") {
        const args = typeof block.args === "string" ? block.args : JSON.stringify(block.args);
        lines.push(`[called ${block.name} with ${args}]`);
      }
    }
    if (lines.length === 0) return [];
    const who = m.role === "tool_result"
      ? `Result of ${m.name}${m.isError ? " (failed)" : ""}`
      : m.role === "assistant"
      ? "Assistant"
      : m.systemRole
      ? "System"
      : "User";
    return [`${who}:\n${lines.join("\n")}`];
  });
}

/** `text` held to about `tokens`: its start and its end, with a note where the middle was. */
export function cut(text: string, tokens: number, count: TokenCounter): string {
  const size = count(text);
  if (size <= tokens) return text;
  const note = "\n[… the middle is left out to fit the window …]\n";
  // Characters per token of this text, and a little under to be safe.
  const keep = Math.max(0, Math.floor((tokens - count(note)) * (text.length / size) * 0.9));
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}${note}${text.slice(text.length - (keep - head))}`;
}

/**
 * The history after a compaction: the `summary` opened by the harness's `context` as the first
 * prompt was (the same items before it, the same parts around it, word for word), then the
 * user's latest request from `messages` with what the harness puts with every prompt (its
 * prefix, its reminders), then the skills it named and what the user sent into its turn since.
 */
export function compactedHistory(
  summary: string,
  messages: Message[],
  context?: SessionContext,
): Message[] {
  const opened: Message = { role: "user", blocks: [{ type: "text", text: summary }] };
  const [request, ...later] = lastRequest(messages);
  const typed = request ? withoutContext([request]) : [];
  if (!context) return [opened, ...typed, ...later];
  return [
    ...withOpeningContext(context, [opened]),
    ...typed.flatMap((m) => promptMessages(context, m.blocks, false)),
    ...later,
  ];
}

/**
 * The prompt that opened the latest turn (not a reminder the harness added, nor a line the user
 * sent into a running turn: a tool result comes right before one of those), then, in order, the
 * `<skill>` messages its `$name` mentions brought in and the lines sent into the turn since.
 */
export function lastRequest(messages: Message[]): Message[] {
  const typed = (m: Message) =>
    m.role === "user" && !m.systemRole && !isSkill(m) &&
    m.blocks.some((b) => b.type !== "text" || !b.context);
  const opensTurn = (i: number) =>
    typed(messages[i]) &&
    messages.slice(0, i).findLast((m) => m.role !== "user" || typed(m) || isSkill(m))?.role !==
      "tool_result";
  const at = messages.findLastIndex((_, i) => opensTurn(i));
  if (at < 0) return [];
  return [messages[at], ...messages.slice(at + 1).filter((m) => isSkill(m) || typed(m))];
}

function isSkill(message: Message): boolean {
  const [only] = message.blocks;
  return message.role === "user" && message.blocks.length === 1 && only.type === "text" &&
    only.text.startsWith("<skill>\n");
}
