/**
 * The Gemini API's own wire: `POST ${base_url}/models/<model>:streamGenerateContent?alt=sse`
 * with the key in `x-goog-api-key`; each event is a `GenerateContentResponse` chunk whose
 * candidate parts are thought summaries, text and whole function calls, and whose last chunk
 * carries `finishReason` and `usageMetadata`. Request body: `gemini_request.ts`.
 */
import type { Block, StopReason, Usage } from "../model/message.ts";
import { emptyUsage } from "../model/message.ts";
import type { ModelRequest } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import {
  abortedEvent,
  appendText,
  deltaEvent,
  doneEvent,
  newToolCall,
  num,
  rec,
  str,
} from "./_blocks.ts";
import { sseProvider } from "./_sse.ts";
import { endpointUrl, requestHeaders, type WireRequest } from "./_http.ts";
import { planRequest } from "./_request_settings.ts";
import { toWire } from "./gemini_request.ts";
import type { Provider, ProviderSettings } from "./types.ts";

export { GEMINI_WIRE_DEFAULTS, toWire } from "./gemini_request.ts";

type Json = Record<string, unknown>;

/** Finish reasons that end a reply normally, or as a refusal; the rest are failures. */
const STOP_REASONS: Record<string, StopReason> = {
  STOP: "end_turn",
  MAX_TOKENS: "max_tokens",
  SAFETY: "refusal",
  RECITATION: "refusal",
  BLOCKLIST: "refusal",
  PROHIBITED_CONTENT: "refusal",
  SPII: "refusal",
  IMAGE_SAFETY: "refusal",
  LANGUAGE: "end_turn",
  OTHER: "end_turn",
  FINISH_REASON_UNSPECIFIED: "end_turn",
};
/** Finish reasons of a reply that broke: the model may get it right on another try. */
const FAILED_REASONS = new Set(["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"]);

/** What the reducer has seen of one streamed reply. */
export interface GeminiState {
  blocks: Block[];
  usage: Usage;
  finishReason?: string;
  /** Call ids minted for calls that came without one, counted per reply. */
  minted: number;
  /** When the reply started, for minted ids (`<name>_<ms>_<n>`, Gemini CLI's form). */
  startedAt: number;
}

/** A fresh reducer state. */
export function initGeminiState(now = Date.now()): GeminiState {
  return { blocks: [], usage: emptyUsage(), minted: 0, startedAt: now };
}

/** Reduces one streamed `GenerateContentResponse` into `state`; returns its events. */
export function fromWire(chunk: unknown, state: GeminiState): StreamEvent[] {
  const c = rec(chunk);
  if (c.usageMetadata !== undefined) state.usage = geminiUsage(rec(c.usageMetadata));
  const candidates = Array.isArray(c.candidates) ? c.candidates : [];
  const blocked = str(rec(c.promptFeedback).blockReason);
  if (candidates.length === 0 && blocked) {
    const message = `Gemini blocked the prompt (${blocked})`;
    const hint = "Rephrase the request, or remove the content the safety filter refused";
    return [{ type: "error", error: { message, hint, retryable: false } }];
  }
  const candidate = rec(candidates[0]);
  const parts = Array.isArray(rec(candidate.content).parts) ? rec(candidate.content).parts : [];
  const events = (parts as unknown[]).flatMap((part) => partEvents(rec(part), state));
  const finish = str(candidate.finishReason);
  if (finish) state.finishReason = finish;
  return events;
}

/** One part: a thought, text or a whole function call, with the signature it carries. */
function partEvents(part: Json, state: GeminiState): StreamEvent[] {
  const signature = str(part.thoughtSignature) || undefined;
  if (part.functionCall !== undefined) {
    const fn = rec(part.functionCall);
    const name = str(fn.name) ?? "";
    const id = str(fn.id) || `${name}_${state.startedAt}_${state.minted++}`;
    const args = fn.args === undefined ? "" : JSON.stringify(fn.args);
    const call = newToolCall(id, name, args);
    if (signature) call.signature = signature;
    state.blocks.push(call);
    const events: StreamEvent[] = [{ type: "tool_call_start", id, name }];
    if (args) events.push({ type: "tool_call_delta", id, argsDelta: args });
    return events;
  }
  const text = str(part.text);
  if (text === undefined) return [];
  const kind = part.thought === true ? "thinking" : "text";
  if (text !== "" || signature) appendText(state.blocks, kind, text);
  const block = state.blocks.at(-1);
  if (signature && (block?.type === "text" || block?.type === "thinking")) {
    block.signature = signature;
  }
  return text ? [deltaEvent(kind, text)] : [];
}

/**
 * `promptTokenCount` includes cached tokens; thoughts are output billed apart from the
 * candidates, so the output is both.
 */
function geminiUsage(u: Json): Usage {
  const thoughts = num(u.thoughtsTokenCount);
  return {
    inputTokens: num(u.promptTokenCount) + num(u.toolUsePromptTokenCount),
    outputTokens: num(u.candidatesTokenCount) + thoughts,
    cachedInputTokens: num(u.cachedContentTokenCount),
    reasoningTokens: thoughts,
  };
}

/** The last event of a reply: `done`, or an error when no usable finish reason arrived. */
export function finishGemini(state: GeminiState, how: "complete" | "aborted"): StreamEvent {
  if (how === "aborted") return abortedEvent(state.blocks, state.usage);
  const reason = state.finishReason;
  if (!reason) {
    const message = "Stream ended before the model finished: no finishReason was sent";
    return { type: "error", error: { message, retryable: true } };
  }
  if (FAILED_REASONS.has(reason)) {
    const message = `Gemini ended the reply with ${reason}: the model's tool call was unusable`;
    return { type: "error", error: { message, retryable: true } };
  }
  return doneEvent(state.blocks, STOP_REASONS[reason] ?? "end_turn", state.usage);
}

/**
 * The endpoint for `model`: `${base_url}/models/<model>:streamGenerateContent?alt=sse`, with a
 * leading `models/` in the model id taken as Gemini's own resource form.
 */
export function geminiUrl(
  baseUrl: string,
  model: string,
  query: Record<string, string> = {},
): string {
  const name = encodeURIComponent(model.replace(/^models\//, ""));
  const path = `/models/${name}:streamGenerateContent`;
  return endpointUrl(baseUrl, { path, query: { alt: "sse", ...query } });
}

/** The request: the key in `x-goog-api-key`; configured headers still win. */
function geminiRequest(settings: ProviderSettings, request: ModelRequest): WireRequest {
  const auth: Record<string, string> = settings.apiKey ? { "x-goog-api-key": settings.apiKey } : {};
  const { headers } = planRequest(request, "gemini", settings.compat);
  return {
    url: geminiUrl(settings.baseUrl, request.model, settings.queryParams),
    headers: requestHeaders(settings, auth, headers),
    body: toWire(request, settings),
  };
}

/** A provider that speaks the Gemini API: POST to `geminiUrl(base_url, model)`, read SSE. */
export function createGeminiProvider(settings: ProviderSettings): Provider {
  return sseProvider(settings, {
    request: (request) => geminiRequest(settings, request),
    init: () => initGeminiState(),
    step: fromWire,
    finish: finishGemini,
  });
}
