/**
 * A reply plan: one script reply with ids, stop reason and usage settled for one wire format.
 * The renderers turn a plan into that wire's stream or JSON body; the server records the ids
 * it issued so later requests can be checked against them.
 */
import type { ScriptReply } from "./script.ts";

/** The wire formats the fake provider speaks. */
export type Wire = "chat" | "responses" | "messages" | "gemini";

/** Per-prefix counters behind generated ids (`call_1`, `toolu_1`, `fc_1`). */
export type IdCounters = Map<string, number>;

/** A tool call as it will be sent. */
export interface PlannedCall {
  /**
   * The call id: chat `tool_calls[].id`, responses `call_id`, messages `tool_use.id`, gemini
   * `functionCall.id`.
   */
  id: string;
  /** The responses output item id (`fc_N`); equal to `id` on the other wires. */
  itemId: string;
  name: string;
  args: Record<string, unknown>;
  argsJson: string;
  /** Responses: a freeform call's raw input (a `custom_tool_call`). */
  input?: string;
  /** Responses: the namespace the function call names. */
  namespace?: string;
}

/** Reasoning as it will be sent, with the opaque token the client must replay verbatim. */
export interface PlannedThinking {
  text: string;
  /** Messages `signature`, responses `encrypted_content` or gemini `thoughtSignature`. */
  sealed: string;
  /** The responses reasoning item id (`rs_N`). */
  itemId: string;
}

/** Token counts in one place; each renderer maps them onto its wire's usage fields. */
export interface PlannedUsage {
  input: number;
  output: number;
  cached: number;
  reasoning: number;
}

/** Everything a renderer needs to answer one request. */
export interface ReplyPlan {
  wire: Wire;
  /** Completion, response or message id. */
  id: string;
  /** Responses message item id. */
  messageItemId: string;
  model: string;
  created: number;
  text?: string;
  /** The text of a refusal; `stop` is then "refusal". */
  refusal?: string;
  thinking?: PlannedThinking;
  calls: PlannedCall[];
  /** Responses: hosted web searches, as `web_search_call` items (id and query). */
  searches: { itemId: string; query: string }[];
  stop: "end_turn" | "tool_calls" | "max_tokens" | "refusal";
  usage: PlannedUsage;
  chunkSize: number;
}

/** Inputs to `planReply` besides the reply itself. */
export interface PlanContext {
  wire: Wire;
  model: string;
  ids: IdCounters;
  /** Size of the raw request body, the basis of the default input token count. */
  requestChars: number;
  chunkSize: number;
}

const ID_PREFIX: Record<Wire, { reply: string; call: string }> = {
  chat: { reply: "chatcmpl-", call: "call_" },
  responses: { reply: "resp_", call: "call_" },
  messages: { reply: "msg_", call: "toolu_" },
  // Gemini's API sends no call ids; the fake does, so the ledger can check them coming back.
  gemini: { reply: "gemini-resp-", call: "call_" },
};

/** Returns the next id for `prefix`: `call_1`, `call_2`, ... */
function nextId(ids: IdCounters, prefix: string): string {
  const n = (ids.get(prefix) ?? 0) + 1;
  ids.set(prefix, n);
  return `${prefix}${n}`;
}

/** Settles ids, stop reason and usage for one reply on one wire. */
export function planReply(reply: ScriptReply, ctx: PlanContext): ReplyPlan {
  const { ids, wire } = ctx;
  const calls = (reply.tool_calls ?? []).map((call): PlannedCall => {
    const id = call.id ?? nextId(ids, ID_PREFIX[wire].call);
    const itemId = wire === "responses" ? nextId(ids, "fc_") : id;
    const { name, args, input, namespace } = call;
    const extra = {
      ...(input !== undefined ? { input } : {}),
      ...(namespace ? { namespace } : {}),
    };
    // A freeform call's arguments, as the client replays them, are its input.
    const sent = input !== undefined ? { input } : args;
    return { id, itemId, name, args: sent, argsJson: JSON.stringify(sent), ...extra };
  });
  const thinking = reply.thinking === undefined || reply.thinking === "" ? undefined : {
    text: reply.thinking,
    itemId: wire === "responses" ? nextId(ids, "rs_") : "",
    sealed: btoa(`fake-provider-reasoning:${nextId(ids, "sealed_")}`),
  };
  const text = reply.text === "" ? undefined : reply.text;
  const refusal = reply.refusal;
  const outputChars = (text ?? refusal ?? "").length + (thinking?.text.length ?? 0) +
    calls.reduce((sum, call) => sum + call.name.length + call.argsJson.length, 0);
  return {
    wire,
    id: nextId(ids, ID_PREFIX[wire].reply),
    messageItemId: wire === "responses" && (text ?? refusal) !== undefined
      ? nextId(ids, "msg_")
      : "",
    model: ctx.model,
    created: Math.floor(Date.now() / 1000),
    text,
    refusal,
    thinking,
    calls,
    searches: wire === "responses"
      ? (reply.web_searches ?? []).map((query) => ({ itemId: nextId(ids, "ws_"), query }))
      : [],
    stop: refusal ? "refusal" : reply.stop ?? (calls.length > 0 ? "tool_calls" : "end_turn"),
    usage: {
      input: reply.usage?.input_tokens ?? Math.ceil(ctx.requestChars / 4),
      output: reply.usage?.output_tokens ?? Math.max(1, Math.ceil(outputChars / 4)),
      cached: reply.usage?.cached_tokens ?? 0,
      reasoning: reply.usage?.reasoning_tokens ?? Math.ceil((thinking?.text.length ?? 0) / 4),
    },
    chunkSize: ctx.chunkSize,
  };
}

/** Splits text into pieces of at most `size` code points, so clients see several deltas. */
export function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}
