/**
 * Compaction: when the history nears the model's window, one request asks the model to
 * summarize the work so far, and the history becomes that summary plus the latest user message.
 */
import type { SessionContext } from "../harness/context.ts";
import { summaryMessage } from "../harness/session_texts.ts";
import type { HarnessTexts } from "../harness/types.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import { addUsage, joinedSystem, type Message, type Usage } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";

export { compactLimit } from "../providers/catalog.ts";

/** Counts the tokens of a text; 4 characters a token until the tokenizer has loaded. */
type TokenCounter = (text: string) => number;

const roughCount: TokenCounter = (text) => Math.ceil(text.length / 4);
let counter: TokenCounter = roughCount;
/** Counts per message, so each one is tokenized once. */
const counted = new WeakMap<Message, number>();

/**
 * Loads the project's tokenizer (o200k, bundled in gpt-tokenizer) for the estimates, when the
 * provider reports no usage to count from; until then, and if it cannot load, estimates count 4
 * characters a token. (Its tables cost about 50 MiB, so it is not loaded when usage comes back.)
 */
export async function loadTokenizer(state: LoopState, limit: number): Promise<void> {
  if (counter !== roughCount || hasReportedUsage(state)) return;
  // The rough count decides while the history is far from the limit.
  if (contextTokens(state) < limit / 2) return;
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base").catch(() => ({
    countTokens: undefined,
  }));
  if (countTokens) counter = (text) => countTokens(text);
}

function hasReportedUsage(state: LoopState): boolean {
  return state.messages.some((m) =>
    m.role === "assistant" && m.usage && m.usage.inputTokens + m.usage.outputTokens > 0
  );
}

/**
 * Tokens the next request will carry: the last reply's reported input and output, plus an
 * estimate for what came after it; an estimate of everything when no usage was reported.
 */
export function contextTokens(state: LoopState): number {
  const messages = state.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== "assistant" || !message.usage) continue;
    const reported = message.usage.inputTokens + message.usage.outputTokens;
    if (reported > 0) return reported + estimate(messages.slice(i + 1));
  }
  return estimate(messages) + counter(joinedSystem(state.system));
}

function estimate(messages: Message[]): number {
  let tokens = 0;
  for (const message of messages) {
    let n = counted.get(message);
    if (n === undefined) {
      n = counter(JSON.stringify(message.blocks));
      if (counter !== roughCount) counted.set(message, n);
    }
    tokens += n;
  }
  return tokens;
}

/** The harness's compaction texts: the request for a summary and the message that holds it. */
export type CompactionTexts = Pick<HarnessTexts, "compaction" | "compactionSummary">;

/**
 * Replaces `state.messages` with a summary of them and the most recent user message, in the
 * harness's words (`texts`), opened by the harness's `context` as the conversation was (the
 * environment, the instruction files, the skills, the reminders), word for word. With `limits`
 * (the model's window) no request passes the window: a history too long to summarise at once is
 * summarised in parts, oldest first. Returns the new history, or throws the provider's failure
 * (the history is then left as it was).
 */
export async function compactHistory(
  state: LoopState,
  provider: Provider,
  signal: AbortSignal,
  texts: CompactionTexts,
  context?: SessionContext,
  limits?: { contextWindow: number; maxOutput?: number },
): Promise<Message[]> {
  const window = limits
    ? {
      ...limits,
      count: (text: string) => counter(text),
      countMessages: estimate,
      rough: counter === roughCount,
    }
    : undefined;
  // Loaded when a compaction runs: start-up does not need it.
  const { askSummary, compactedHistory } = await import("./compaction_parts.ts");
  const summary = await askSummary(state, provider, signal, texts.compaction, window);
  const compacted = compactedHistory(summaryMessage(texts, summary), state.messages, context);
  state.messages.splice(0, state.messages.length, ...compacted);
  return compacted;
}

/** `provider`, with the usage of every reply it streams added to `usage`. */
export function countingUsage(provider: Provider, usage: Usage): Provider {
  return {
    settings: provider.settings,
    async *stream(request, signal) {
      for await (const event of provider.stream(request, signal)) {
        if (event.type === "done") addUsage(usage, event.usage);
        yield event;
      }
    },
  };
}
