/** OpenAI Chat Completions: request body, stream reducer and provider. */
import type { Block, ModelRequest, StopReason, Usage } from "../model/message.ts";
import { emptyUsage, textOf } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import {
  abortedEvent,
  appendText,
  deltaEvent,
  doneEvent,
  newToolCall,
  num,
  rec,
  replayArgs,
  str,
  type ToolCallBlock,
} from "./_blocks.ts";
import { sseProvider } from "./_sse.ts";
import { openaiRequest } from "./_openai_request.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import {
  cachedText,
  markLastMessage,
  readReasoningDetails,
  REASONING_DETAILS,
  reasoningDetails,
  systemMessage,
} from "./_chat_markers.ts";
import { finishBody, planRequest } from "./_request_settings.ts";
import type { Compat, Provider, ProviderSettings } from "./types.ts";

type Json = Record<string, unknown>;

const STOP_REASONS: Record<string, StopReason> = {
  stop: "end_turn",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "max_tokens",
  content_filter: "refusal",
};

const DEFAULT_REASONING_FIELD = "reasoning_content";

function sendsReasoning(compat: Compat, thinking: string, hasCalls: boolean): boolean {
  switch (compat.reasoningReplay) {
    case "none":
      return false;
    case "always":
      return true;
    case "tool_calls":
      return thinking !== "" || hasCalls;
    default:
      return thinking !== "";
  }
}

/** Builds the Chat Completions request body for `request`. */
export function toWire(request: ModelRequest, settings: Pick<ProviderSettings, "compat">): Json {
  const { compat } = settings;
  const plan = planRequest(request, "chat", compat);
  const messages: Json[] = [];
  const markers = compat.cacheMarkers === true;
  const system = systemMessage(request.system, markers);
  if (system) messages.push(system);
  let toolImages: Json[] = [];
  for (const message of foldSystemMessages(request.messages, compat.systemMessages === true)) {
    if (message.role !== "tool_result" && toolImages.length > 0) {
      messages.push({ role: "user", content: toolImages });
      toolImages = [];
    }
    if (message.role === "user") {
      const role = message.systemRole && compat.systemMessages ? "system" : "user";
      const content = userContent(message.blocks, { textParts: plan.spec.textParts, markers });
      messages.push({ role, content });
    } else if (message.role === "assistant") {
      messages.push(...assistantMessages(message.blocks, compat, plan.spec.splitAssistant));
    } else {
      const text = textOf(message.blocks);
      const content = plan.spec.textParts ? [{ type: "text", text }] : text;
      messages.push({ role: "tool", tool_call_id: message.callId, content });
      toolImages.push(...imageParts(message.blocks));
    }
  }
  if (toolImages.length > 0) messages.push({ role: "user", content: toolImages });
  if (markers && plan.spec.cache?.includes("last_message")) markLastMessage(messages);
  const body: Json = { model: request.model, messages, stream: true };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        ...plan.spec.toolFields,
      },
    }));
  }
  if (compat.streamUsage ?? true) body.stream_options = { include_usage: true };
  if (plan.maxOutputTokens) {
    body[compat.maxTokensField ?? plan.spec.maxTokensField ?? "max_tokens"] = plan.maxOutputTokens;
  }
  const reasoning = plan.spec.reasoning !== false && plan.wireEffort !== undefined;
  if (reasoning && compat.reasoningRequest === "reasoning") {
    body.reasoning = { effort: plan.wireEffort };
  } else if (reasoning) body.reasoning_effort = plan.wireEffort;
  if (request.outputSchema) {
    const { name, schema, strict } = request.outputSchema;
    body.response_format = { type: "json_schema", json_schema: { name, strict, schema } };
  }
  return finishBody(body, plan, {
    compat,
    sessionId: request.sessionId,
    thinkingOn: reasoning,
    hasTools: request.tools.length > 0,
  });
}

/**
 * User content: one string when it is all text (blocks joined by blank lines), else text and
 * image parts; `textParts` sends several text blocks as parts too (Qwen Code's form, which also
 * sends each tool result as a list of one text part), and `markers` parts with a cache
 * breakpoint on each block the harness caches.
 */
function userContent(
  blocks: Block[],
  opts: { textParts?: boolean; markers: boolean },
): string | Json[] {
  const parts = blocks.filter((b) => b.type !== "text" || b.text !== "");
  const cached = opts.markers && parts.some((b) => b.type === "text" && b.cache);
  const allText = parts.every((b) => b.type === "text");
  if (allText && !cached && (!opts.textParts || parts.length <= 1)) {
    return parts.map((b) => (b as { text: string }).text).join("\n\n");
  }
  return parts.flatMap((b): Json[] => {
    if (b.type !== "text") return imageParts([b]);
    return [cached && b.cache ? cachedText(b.text) : { type: "text", text: b.text }];
  });
}

function imageParts(blocks: Block[]): Json[] {
  return blocks.flatMap((b) =>
    b.type === "image"
      ? [{ type: "image_url", image_url: { url: `data:${b.mime};base64,${b.base64}` } }]
      : []
  );
}

/**
 * The assistant messages of one reply: one message, or with `split` (Kimi Code's form) its text
 * and thinking in one message and its tool calls in the next.
 */
function assistantMessages(blocks: Block[], compat: Compat, split = false): Json[] {
  const isCall = (b: Block) => b.type === "tool_call";
  const parts = split && textOf(blocks) !== "" && blocks.some(isCall)
    ? [blocks.filter((b) => !isCall(b)), blocks.filter(isCall)]
    : [blocks];
  return parts.map((p) => assistantMessage(p, compat)).filter((m): m is Json => m !== undefined);
}

/**
 * An assistant message, or undefined when there is nothing to send. The harness has already
 * decided which thinking stays in the history (`replayReasoning`); all of it goes back under
 * `compat.reasoningField` (default `reasoning_content`). `compat.reasoningReplay` only adds what
 * an endpoint needs: "" on tool-calling messages ("tool_calls") or on every message ("always")
 * without thinking, or nothing at all ("none") for an endpoint that rejects the field.
 */
function assistantMessage(blocks: Block[], compat: Compat): Json | undefined {
  const text = textOf(blocks);
  const calls = blocks.filter((b): b is ToolCallBlock => b.type === "tool_call");
  if (text === "" && calls.length === 0) return undefined;
  const wire: Json = { role: "assistant", content: text === "" ? null : text };
  const thinking = blocks.map((b) => b.type === "thinking" ? b.text : "").join("");
  if (compat.reasoningField === REASONING_DETAILS) {
    const details = compat.reasoningReplay === "none" ? [] : reasoningDetails(blocks);
    if (details.length > 0) wire.reasoning_details = details;
  } else if (sendsReasoning(compat, thinking, calls.length > 0)) {
    wire[compat.reasoningField ?? DEFAULT_REASONING_FIELD] = thinking;
  }
  if (calls.length > 0) {
    wire.tool_calls = calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(replayArgs(c)) },
    }));
  }
  return wire;
}

/** What the reducer has seen of one streamed completion. */
export interface ChatState {
  blocks: Block[];
  /** Tool calls by their streamed `index`. */
  calls: Map<number, ToolCallBlock>;
  lastIndex: number;
  usage: Usage;
  finishReason?: string;
  /** A `refusal` delta came: the model declined; its text is the reply's text. */
  refused?: boolean;
  /** Delta fields read as reasoning, in order of preference. */
  reasoningFields: string[];
}

/** A fresh reducer state; `compat.reasoningField` is read first, then the common field names. */
export function initChatState(compat: Compat): ChatState {
  const fields = [compat.reasoningField, "reasoning_content", "reasoning"]
    .filter((f): f is string => typeof f === "string");
  return {
    blocks: [],
    calls: new Map(),
    lastIndex: 0,
    usage: emptyUsage(),
    reasoningFields: [...new Set(fields)],
  };
}

/** Reduces one streamed `chat.completion.chunk` into `state`; returns the events it produced. */
export function fromWire(chunk: unknown, state: ChatState): StreamEvent[] {
  const c = rec(chunk);
  const choice = rec(Array.isArray(c.choices) ? c.choices[0] : undefined);
  const usage = c.usage ?? choice.usage;
  if (usage !== null && typeof usage === "object") state.usage = chatUsage(rec(usage));
  const delta = rec(choice.delta);
  const events: StreamEvent[] = [];
  // Structured details carry the same text as `reasoning`, and the signatures besides.
  const details = delta.reasoning_details;
  const reasoning = Array.isArray(details)
    ? readReasoningDetails(details, state.blocks)
    : state.reasoningFields.map((f) => str(delta[f])).find((r) => r);
  if (reasoning && !Array.isArray(details)) appendText(state.blocks, "thinking", reasoning);
  if (reasoning) events.push(deltaEvent("thinking", reasoning));
  const refusal = str(delta.refusal);
  if (refusal) state.refused = true;
  const content = (str(delta.content) ?? "") + (refusal ?? "");
  if (content) {
    appendText(state.blocks, "text", content);
    events.push(deltaEvent("text", content));
  }
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls) events.push(...toolCallDelta(rec(call), state));
  }
  const finish = str(choice.finish_reason);
  if (finish) state.finishReason = finish;
  return events;
}

/**
 * Accumulates one `delta.tool_calls` entry. Entries are keyed by `index`; a new `id` at a known
 * index starts a new call (some servers number every call 0), and a missing index continues the
 * last call.
 */
function toolCallDelta(entry: Json, state: ChatState): StreamEvent[] {
  const fn = rec(entry.function);
  const index = typeof entry.index === "number" ? entry.index : state.lastIndex;
  const id = str(entry.id) || undefined;
  state.lastIndex = index;
  const events: StreamEvent[] = [];
  const name = str(fn.name) ?? "";
  let call = state.calls.get(index);
  if (!call || (id !== undefined && id !== call.id)) {
    call = newToolCall(id ?? `call_${crypto.randomUUID().slice(0, 8)}`, name);
    state.calls.set(index, call);
    state.blocks.push(call);
    events.push({ type: "tool_call_start", id: call.id, name });
  } else if (call.name === "") {
    call.name = name;
  }
  const args = typeof fn.arguments === "string"
    ? fn.arguments
    : fn.arguments === undefined || fn.arguments === null
    ? ""
    : JSON.stringify(fn.arguments);
  if (args !== "") {
    call.rawArgs = (call.rawArgs ?? "") + args;
    events.push({ type: "tool_call_delta", id: call.id, argsDelta: args });
  }
  return events;
}

function chatUsage(u: Json): Usage {
  return {
    inputTokens: num(u.prompt_tokens),
    outputTokens: num(u.completion_tokens),
    cachedInputTokens: num(rec(u.prompt_tokens_details).cached_tokens) ||
      num(u.prompt_cache_hit_tokens),
    reasoningTokens: num(rec(u.completion_tokens_details).reasoning_tokens),
  };
}

/** The last event of a completion: `done`, or an error when no `finish_reason` arrived. */
export function finishChat(state: ChatState, how: "complete" | "aborted"): StreamEvent {
  if (how === "aborted") return abortedEvent(state.blocks, state.usage);
  if (!state.finishReason) {
    const message = "Stream ended before the model finished: no finish_reason was sent";
    return { type: "error", error: { message, retryable: true } };
  }
  const stop = state.refused ? "refusal" : STOP_REASONS[state.finishReason] ?? "end_turn";
  return doneEvent(state.blocks, stop, state.usage);
}

/** A provider that speaks Chat Completions: POST `${base_url}/chat/completions`, read SSE. */
export function createChatProvider(settings: ProviderSettings): Provider {
  return sseProvider(settings, {
    request: (request) =>
      openaiRequest(settings, {
        path: "/chat/completions",
        body: toWire(request, settings),
        headers: planRequest(request, "chat", settings.compat).headers,
      }),
    init: () => initChatState(settings.compat),
    step: fromWire,
    finish: finishChat,
  });
}
