import type { ModelRequest } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";

import type { ThinkingMode, WireApi } from "../model/request_settings.ts";

export type { WireApi };

/** Provider quirks, kept as data so adapter code never branches on model or vendor names. */
export interface Compat {
  /**
   * Chat: the assistant-message field that carries reasoning, sent and read
   * (default "reasoning_content"). "reasoning_details" is OpenRouter's structured form: each
   * thinking block goes back as a `reasoning.text` entry with its signature (or
   * `reasoning.encrypted`), and streamed entries are read with theirs.
   */
  reasoningField?: string;
  /**
   * Chat: what an endpoint needs beyond the harness's replay (thinking the harness keeps is
   * always sent). Unset: only messages with thinking carry the field. "tool_calls" also sends ""
   * on tool-calling messages (DeepSeek); "always" sends "" on every assistant message (Kimi);
   * "none" never sends it, for endpoints that reject the field.
   */
  reasoningReplay?: "tool_calls" | "always" | "none";
  /** Chat: "max_tokens" or "max_completion_tokens". */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Chat: send `stream_options.include_usage` (default true; set false for servers that reject it). */
  streamUsage?: boolean;
  /**
   * Messages: the thinking form the endpoint takes, over the harness's: "budget" sends
   * `thinking.budget_tokens`, "adaptive" sends `thinking.type = "adaptive"` with
   * `output_config.effort`, "off" never asks for thinking.
   */
  thinking?: ThinkingMode;
  /** Top-level body keys the endpoint rejects; they are removed from every request. */
  dropKeys?: string[];
  /**
   * The endpoint takes system-role messages after the conversation's start: Messages
   * `role: "system"` (Anthropic's, with the beta the harness sends), Chat `role: "system"`,
   * Responses developer messages (taken unless this is false, as OpenRouter's is). Otherwise
   * harness context meant for one goes as `<system-reminder>` parts before the user's text.
   */
  systemMessages?: boolean;
  /**
   * Chat: how reasoning is asked for: `reasoning_effort` (the default), or "reasoning" for
   * OpenRouter's own `reasoning: {effort}` object.
   */
  reasoningRequest?: "reasoning_effort" | "reasoning";
  /**
   * Chat: the endpoint takes Anthropic's `cache_control` markers on content parts (OpenRouter):
   * they go where the harness puts cache breakpoints (cached system parts and context, its
   * `cache = ["last_message"]`).
   */
  cacheMarkers?: boolean;
  /** Responses: the server runs the hosted `web_search` tool. */
  hostedWebSearch?: boolean;
}

/** A fully resolved provider: where to send requests and how. */
export interface ProviderSettings {
  id: string;
  name: string;
  baseUrl: string;
  wireApi: WireApi;
  /** Undefined for local providers that need no key. */
  apiKey?: string;
  /** The environment variable the key comes from; named in authentication hints. */
  envKey?: string;
  headers: Record<string, string>;
  queryParams: Record<string, string>;
  /**
   * Retries of one request that failed before its stream started: HTTP 429 or 5xx, no
   * connection, no response headers in time.
   */
  requestMaxRetries: number;
  /**
   * Retries of one request whose stream started and then broke: dropped or reset, stalled, or a
   * transient error event. Counted apart from `requestMaxRetries`.
   */
  streamMaxRetries: number;
  /** Longest wait for the next data event (SSE comments do not count); 0 disables it. */
  streamIdleTimeoutMs: number;
  /** Longest line of a stream (an SSE or NDJSON line), in bytes. */
  streamMaxLineBytes: number;
  /** Most bytes of one streamed reply, framing included. */
  streamMaxReplyBytes: number;
  /** Longest wait, per attempt, for the first delta; default twice `streamIdleTimeoutMs`. */
  firstTokenTimeoutMs?: number;
  /**
   * Bound of one request with all its retries (`stream_max_reply_ms`): a reply that streams
   * without end stops here if it does not reach `streamMaxReplyBytes` first. Default 30 min, or
   * 10 idle periods if longer.
   */
  requestTimeoutMs?: number;
  compat: Compat;
  /**
   * A server's own API in place of `wireApi`'s endpoint: "ollama" talks to `/api/chat` at the
   * server root (streamed NDJSON, `options.num_ctx`). `wireApi` stays the wire family whose
   * harness settings apply ("chat").
   */
  nativeApi?: "ollama";
  /** The context window the user set (`model_context_window`); native Ollama asks for it. */
  contextWindow?: number;
}

/**
 * A model provider. Contract: once called, `stream` never throws; every failure (HTTP status,
 * malformed stream, idle timeout, abort) ends the stream with an `error` event, and success ends
 * it with one `done` event that holds the complete assistant blocks. Deltas are a preview: a
 * `retry` event with `discarded` set voids the deltas before it, and only `done` is the reply.
 */
export interface Provider {
  readonly settings: ProviderSettings;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}
