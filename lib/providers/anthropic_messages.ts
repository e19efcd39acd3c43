/** Anthropic Messages API: request body, stream reducer and provider. */
import type { Block, ModelRequest, StopReason, Usage } from "../model/message.ts";
import { emptyUsage, textOf } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import {
  abortedEvent,
  deltaEvent,
  doneEvent,
  newToolCall,
  num,
  rec,
  replayArgs,
  str,
} from "./_blocks.ts";
import { sseProvider } from "./_sse.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import {
  endpointUrl,
  isTransientKind,
  requestHeaders,
  trimBaseUrl,
  type WireRequest,
} from "./_http.ts";
import { finishBody, planRequest, type RequestPlan } from "./_request_settings.ts";
import type { Compat, Provider, ProviderSettings } from "./types.ts";

type Json = Record<string, unknown>;
type WireMessage = { role: "user" | "assistant" | "system"; content: Json[] };

/** `max_tokens` is required by the API; this applies when the request sets no limit. */
export const DEFAULT_MAX_TOKENS = 32_000;
const THINKING_BUDGETS = { minimal: 1024, low: 4096, medium: 10_000, high: 20_000, xhigh: 31_999 };
const MIN_THINKING_BUDGET = 1024;
const STOP_REASONS: Record<string, StopReason> = {
  tool_use: "tool_calls",
  max_tokens: "max_tokens",
  model_context_window_exceeded: "max_tokens",
  refusal: "refusal",
};

/**
 * Builds the Messages request body. Consecutive messages of one role are merged, so a run of
 * tool results becomes one user message. Thinking is replayed only with its signature, and
 * redacted thinking (kept as a thinking block with `encrypted` and no `id`) verbatim. The
 * harness's settings (`planRequest`) add the output limit, thinking, cache breakpoints and keys.
 */
export function toWire(request: ModelRequest, settings: Pick<ProviderSettings, "compat">): Json {
  const { compat } = settings;
  const plan = planRequest(request, "messages", compat);
  const messages = wireMessages(request, compat);
  // The API requires a limit: without one from the harness, ours, within the model's own.
  const maxTokens = plan.maxOutputTokens ??
    Math.min(DEFAULT_MAX_TOKENS, request.maxOutputCap ?? Infinity);
  const body: Json = { model: request.model, max_tokens: maxTokens, messages, stream: true };
  const system = systemBlocks(request);
  if (system.length > 0) body.system = system;
  if (request.tools.length > 0) {
    const tools: Json[] = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
      ...plan.spec.toolFields,
    }));
    if (plan.spec.cache?.includes("last_tool")) tools.at(-1)!.cache_control = EPHEMERAL;
    body.tools = tools;
  }
  if (plan.spec.cache?.includes("last_message")) markLastBlock(messages);
  const thinking = thinkingParams(plan, maxTokens);
  Object.assign(body, thinking);
  return finishBody(body, plan, {
    compat,
    sessionId: request.sessionId,
    thinkingOn: "thinking" in thinking,
    hasTools: request.tools.length > 0,
  });
}

const EPHEMERAL = Object.freeze({ type: "ephemeral" });

function wireMessages(request: ModelRequest, compat: Compat): WireMessage[] {
  const messages: WireMessage[] = [];
  const push = (role: WireMessage["role"], content: Json[]) => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const message of foldSystemMessages(request.messages, compat.systemMessages === true)) {
    if (message.role === "user") {
      const role = message.systemRole && compat.systemMessages ? "system" : "user";
      push(role, contentBlocks(message.blocks));
    } else if (message.role === "assistant") {
      push("assistant", assistantBlocks(message.blocks));
    } else {
      const result: Json = { type: "tool_result", tool_use_id: wireId(message.callId) };
      result.content = message.blocks.every((b) => b.type === "text")
        ? textOf(message.blocks)
        : contentBlocks(message.blocks);
      if (message.isError) result.is_error = true;
      push("user", [result]);
    }
  }
  return messages;
}

/** The system parts as blocks, with their cache breakpoints; the output instruction last. */
function systemBlocks(request: ModelRequest): Json[] {
  const blocks: Json[] = request.system.filter((p) => p.text).map((p) => {
    const block: Json = { type: "text", text: p.text };
    if (p.cache) block.cache_control = EPHEMERAL;
    return block;
  });
  const instruction = outputInstruction(request);
  if (instruction) blocks.push({ type: "text", text: instruction });
  return blocks;
}

/** Puts a cache breakpoint on the last content block of the last message. */
function markLastBlock(messages: WireMessage[]): void {
  const block = messages.at(-1)?.content.at(-1);
  if (block) block.cache_control = EPHEMERAL;
}

/**
 * Messages has no structured-output setting that every compatible server takes, so the schema
 * goes into the system prompt; the caller validates the answer and asks again on a mismatch.
 */
function outputInstruction(request: ModelRequest): string {
  if (!request.outputSchema) return "";
  return "When you give your final answer, reply with only a JSON value that matches this JSON " +
    `Schema, with no prose and no code fence:\n${JSON.stringify(request.outputSchema.schema)}`;
}

/** `output_config.effort` takes low, medium and high: the nearest one, without a harness map. */
function messagesEffort(plan: RequestPlan): string {
  return plan.effort === "minimal" ? "low" : plan.effort === "xhigh" ? "high" : plan.wireEffort!;
}

/** `thinking` and `output_config` for the plan; nothing when thinking is off. */
function thinkingParams(plan: RequestPlan, maxTokens: number): Json {
  if (plan.thinking === "adaptive") {
    const thinking: Json = { type: "adaptive" };
    if (plan.spec.thinkingDisplay) thinking.display = plan.spec.thinkingDisplay;
    const out: Json = { thinking };
    if (plan.wireEffort) {
      out.output_config = { effort: plan.spec.effortMap ? plan.wireEffort : messagesEffort(plan) };
    }
    return out;
  }
  if (plan.thinking === "off") return {};
  const budget = plan.spec.thinkingBudget === "max"
    ? maxTokens - 1
    : Math.min(THINKING_BUDGETS[plan.effort ?? "medium"], maxTokens - 1);
  return budget < MIN_THINKING_BUDGET
    ? {}
    : { thinking: { type: "enabled", budget_tokens: budget } };
}

/** Tool ids must match `^[a-zA-Z0-9_-]+$`; ids minted by other providers are made to fit. */
function wireId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function contentBlocks(blocks: Block[]): Json[] {
  return blocks.flatMap((b): Json[] => {
    if (b.type === "text") {
      if (b.text === "") return [];
      return [
        b.cache ? { type: "text", text: b.text, cache_control: EPHEMERAL } : {
          type: "text",
          text: b.text,
        },
      ];
    }
    if (b.type === "image") {
      return [{ type: "image", source: { type: "base64", media_type: b.mime, data: b.base64 } }];
    }
    return [];
  });
}

function assistantBlocks(blocks: Block[]): Json[] {
  return blocks.flatMap((b): Json[] => {
    if (b.type === "thinking") {
      if (b.signature) return [{ type: "thinking", thinking: b.text, signature: b.signature }];
      if (b.encrypted && !b.id) return [{ type: "redacted_thinking", data: b.encrypted }];
      return [];
    }
    if (b.type === "tool_call") {
      return [{ type: "tool_use", id: wireId(b.id), name: b.name, input: replayArgs(b) }];
    }
    return contentBlocks([b]);
  });
}

/** What the reducer has seen of one streamed message. */
export interface MessagesState {
  blocks: Block[];
  /** Blocks by content block `index`. */
  byIndex: Map<number, Block>;
  usage: Usage;
  stopReason?: string;
}

/** A fresh reducer state. */
export function initMessagesState(): MessagesState {
  return { blocks: [], byIndex: new Map(), usage: emptyUsage() };
}

/** Reduces one Messages stream event into `state`; returns the events it produced. */
export function fromWire(chunk: unknown, state: MessagesState): StreamEvent[] {
  const e = rec(chunk);
  switch (e.type) {
    case "message_start":
      mergeUsage(state.usage, rec(rec(e.message).usage));
      return [];
    case "content_block_start":
      return blockStart(num(e.index), rec(e.content_block), state);
    case "content_block_delta":
      return blockDelta(state.byIndex.get(num(e.index)), rec(e.delta));
    case "message_delta":
      state.stopReason = str(rec(e.delta).stop_reason) ?? state.stopReason;
      mergeUsage(state.usage, rec(e.usage));
      return [];
    case "error": {
      const error = rec(e.error);
      const message = `Message failed: ${str(error.message) ?? "no reason given"}`;
      return [{ type: "error", error: { message, retryable: isTransientKind(error.type) } }];
    }
    default:
      return [];
  }
}

function blockStart(index: number, cb: Json, state: MessagesState): StreamEvent[] {
  let block: Block;
  const events: StreamEvent[] = [];
  if (cb.type === "text") {
    block = { type: "text", text: str(cb.text) ?? "" };
    if (block.text) events.push(deltaEvent("text", block.text));
  } else if (cb.type === "thinking") {
    block = { type: "thinking", text: str(cb.thinking) ?? "" };
    if (str(cb.signature)) block.signature = str(cb.signature);
    if (block.text) events.push(deltaEvent("thinking", block.text));
  } else if (cb.type === "redacted_thinking") {
    block = { type: "thinking", text: "", encrypted: str(cb.data) ?? "" };
  } else if (cb.type === "tool_use") {
    const input = rec(cb.input);
    const initial = Object.keys(input).length > 0 ? JSON.stringify(input) : "";
    block = newToolCall(str(cb.id) ?? `toolu_${index}`, str(cb.name) ?? "", initial);
    events.push({ type: "tool_call_start", id: block.id, name: block.name });
    if (initial) events.push({ type: "tool_call_delta", id: block.id, argsDelta: initial });
  } else {
    return [];
  }
  state.byIndex.set(index, block);
  state.blocks.push(block);
  return events;
}

function blockDelta(block: Block | undefined, d: Json): StreamEvent[] {
  if (d.type === "text_delta" && block?.type === "text") {
    const text = str(d.text) ?? "";
    block.text += text;
    return text ? [deltaEvent("text", text)] : [];
  }
  if (d.type === "thinking_delta" && block?.type === "thinking") {
    const text = str(d.thinking) ?? "";
    block.text += text;
    return text ? [deltaEvent("thinking", text)] : [];
  }
  if (d.type === "signature_delta" && block?.type === "thinking") {
    block.signature = (block.signature ?? "") + (str(d.signature) ?? "");
    return [];
  }
  if (d.type === "input_json_delta" && block?.type === "tool_call") {
    const json = str(d.partial_json) ?? "";
    block.rawArgs = (block.rawArgs ?? "") + json;
    return json ? [{ type: "tool_call_delta", id: block.id, argsDelta: json }] : [];
  }
  return [];
}

/** Usage counts are running totals; `inputTokens` includes cache reads and writes. */
function mergeUsage(usage: Usage, u: Json): void {
  const input = num(u.input_tokens);
  const read = num(u.cache_read_input_tokens);
  const write = num(u.cache_creation_input_tokens);
  if (input + read + write > 0) {
    usage.inputTokens = input + read + write;
    usage.cachedInputTokens = read;
  }
  if (typeof u.output_tokens === "number") usage.outputTokens = u.output_tokens;
  const thinking = num(rec(u.output_tokens_details).thinking_tokens);
  if (thinking > 0) usage.reasoningTokens = thinking;
}

/** The last event of a message: `done`, or an error when no stop reason arrived. */
export function finishMessages(state: MessagesState, how: "complete" | "aborted"): StreamEvent {
  if (how === "aborted") return abortedEvent(state.blocks, state.usage);
  if (!state.stopReason) {
    const message = "Stream ended before the message finished: no stop_reason was sent";
    return { type: "error", error: { message, retryable: true } };
  }
  return doneEvent(state.blocks, STOP_REASONS[state.stopReason] ?? "end_turn", state.usage);
}

/**
 * The Messages endpoint for a base_url. A Codex-style base_url includes the version and ends in
 * `/v1` (`https://api.anthropic.com/v1` → `https://api.anthropic.com/v1/messages`); any other
 * base_url is the form Anthropic-compatible vendors document, without the version, and gets
 * `/v1/messages` (`https://host/anthropic` → `https://host/anthropic/v1/messages`).
 */
export function messagesUrl(baseUrl: string, query: Record<string, string> = {}): string {
  const path = trimBaseUrl(new URL(baseUrl).pathname).endsWith("/v1")
    ? "/messages"
    : "/v1/messages";
  return endpointUrl(baseUrl, { path, query });
}

/**
 * The request for `body`. Authentication is the long-standing form every Messages server
 * accepts: `x-api-key` and `anthropic-version: 2023-06-01`; configured headers still win.
 */
function messagesRequest(settings: ProviderSettings, request: ModelRequest): WireRequest {
  const auth: Record<string, string> = { "anthropic-version": "2023-06-01" };
  if (settings.apiKey) auth["x-api-key"] = settings.apiKey;
  const { headers } = planRequest(request, "messages", settings.compat);
  return {
    url: messagesUrl(settings.baseUrl, settings.queryParams),
    headers: requestHeaders(settings, auth, headers),
    body: toWire(request, settings),
  };
}

/** A provider that speaks the Messages API: POST to `messagesUrl(base_url)`, read SSE. */
export function createMessagesProvider(settings: ProviderSettings): Provider {
  return sseProvider(settings, {
    request: (request) => messagesRequest(settings, request),
    init: initMessagesState,
    step: fromWire,
    finish: finishMessages,
  });
}
