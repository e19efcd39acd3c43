/** Streaming transport: one POST, then the server-sent events of its body as parsed JSON. */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ModelRequest } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import { rec } from "./_blocks.ts";
import { bodyText } from "./_body_text.ts";
import { driveStream } from "./_drive.ts";
import { HtmlReplyError, isHtml, post, StreamReportedError, type WireRequest } from "./_http.ts";
import { MAX_SIDE_BODY_BYTES, readCapped, type StreamLimits } from "./_stream_limits.ts";
import type { Provider, ProviderSettings } from "./types.ts";

/** The data line that ends a Chat Completions stream. */
const DONE = "[DONE]";

/**
 * Sends `request` and resolves, once response headers arrive, to the JSON payloads of its event
 * stream (see `jsonEvents`), bounded by `limits`. A success status with a JSON body is the server
 * ignoring `stream: true`, or an error in disguise: it throws instead of streaming. So does an
 * HTML page (`HtmlReplyError`), which is a proxy or a sign-in page answering instead of the API.
 */
async function openEventStream(
  request: WireRequest,
  signal: AbortSignal,
  limits: StreamLimits,
): Promise<AsyncIterable<unknown>> {
  const response = await post(request, signal);
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) {
    const { text, truncated } = await readCapped(response.body, MAX_SIDE_BODY_BYTES);
    const data = truncated ? undefined : JSON.parse(text);
    if (hasError(data)) throw new StreamReportedError(data);
    throw new SyntaxError('Expected an event stream, got a single "application/json" reply');
  }
  if (isHtml(type, undefined)) {
    throw new HtmlReplyError(
      request.url,
      (await readCapped(response.body, MAX_SIDE_BODY_BYTES)).text,
    );
  }
  return jsonEvents(response.body ?? new ReadableStream(), signal, limits);
}

/**
 * The JSON payloads of an SSE body, in order. Each payload's own `type` field names it, so
 * `event:` lines are not consulted. The stream ends with the body or at `data: [DONE]`; comments
 * and events without data are skipped. Data that is not JSON throws `SyntaxError`; a payload
 * with an `error` member (how OpenAI and Anthropic report failures mid-stream) throws
 * `StreamReportedError`; a body that breaks off throws `StreamInterruptedError`, one that passes
 * `limits` throws `StreamLimitError`. When `signal` aborts, the body is cancelled and the abort
 * reason thrown: a fetch's own abort does not stop a body that keeps sending.
 */
export async function* jsonEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  limits?: StreamLimits,
): AsyncGenerator<unknown> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const chunk of bodyText(body, signal, limits)) {
    parser.feed(chunk);
    for (const event of pending.splice(0)) {
      const text = event.data.trim();
      if (text === DONE) return;
      if (text === "") continue;
      const data: unknown = JSON.parse(text);
      if (hasError(data)) throw new StreamReportedError(data);
      yield data;
    }
  }
}

/** Whether a payload carries an `error` member. */
function hasError(data: unknown): boolean {
  const error = rec(data).error;
  return error !== undefined && error !== null && error !== false;
}

/** What an SSE adapter supplies: its request for a model request, and its stream reducer. */
export interface SseWire<S> {
  request(request: ModelRequest): WireRequest;
  init(): S;
  step(chunk: unknown, state: S): StreamEvent[];
  finish(state: S, how: "complete" | "aborted"): StreamEvent;
}

/** A provider that POSTs `wire.request()` and reads the reply as server-sent events. */
export function sseProvider<S>(settings: ProviderSettings, wire: SseWire<S>): Provider {
  return {
    settings,
    stream(request, signal) {
      return driveStream({
        settings,
        model: request.model,
        open: (abort) => openEventStream(wire.request(request), abort, settings),
        init: wire.init,
        step: wire.step,
        finish: wire.finish,
      }, signal);
    },
  };
}
