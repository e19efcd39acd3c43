/** Test helpers: a scripted SSE server on 127.0.0.1, settings and requests for a test provider. */
import { type ModelRequest, systemText } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import { DEFAULT_STREAM_MAX_LINE_BYTES, DEFAULT_STREAM_MAX_REPLY_BYTES } from "./_stream_limits.ts";
import type { ProviderSettings, WireApi } from "./types.ts";

/**
 * One scripted HTTP reply. `parts` are sent in order after `body`, a number being a pause in ms;
 * `repeat` then sends its part every `everyMs` until the client goes away; `hold` keeps the body
 * open after everything is sent.
 */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  parts?: (string | number)[];
  repeat?: { part: string; everyMs: number };
  hold?: boolean;
}

/** A request the server received. */
export interface Recorded {
  path: string;
  search: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A running scripted server; `baseUrl` ends in `/v1`. */
export interface ScriptedServer extends AsyncDisposable {
  baseUrl: string;
  requests: Recorded[];
}

/** Serves `replies` in order, one per request, and records every request. */
export function serveReplies(replies: Reply[]): ScriptedServer {
  const requests: Recorded[] = [];
  const queue = [...replies];
  const encoder = new TextEncoder();
  const held: ReadableStreamDefaultController[] = [];
  const stop = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    requests.push({ path: url.pathname, search: url.search, headers: req.headers, body });
    const reply = queue.shift() ?? { status: 500, body: '{"error":{"message":"no reply left"}}' };
    const status = reply.status ?? 200;
    const type = status >= 400 ? "application/json" : "text/event-stream";
    const headers = { "content-type": type, ...reply.headers };
    if (!reply.hold && !reply.parts && !reply.repeat) {
      return new Response(reply.body ?? "", { status, headers });
    }
    const stream = new ReadableStream({
      async start(controller) {
        if (reply.body) controller.enqueue(encoder.encode(reply.body));
        held.push(controller);
        try {
          for (const part of reply.parts ?? []) {
            if (typeof part === "number") await pause(part, stop.signal);
            else controller.enqueue(encoder.encode(part));
          }
          while (reply.repeat && await pause(reply.repeat.everyMs, stop.signal)) {
            controller.enqueue(encoder.encode(reply.repeat.part));
          }
          if (!reply.hold) controller.close();
        } catch {
          // cancelled by the client
        }
      },
    });
    return new Response(stream, { status, headers });
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    async [Symbol.asyncDispose]() {
      stop.abort();
      for (const controller of held) {
        try {
          controller.close();
        } catch {
          // already cancelled by the client
        }
      }
      await server.shutdown();
    },
  };
}

/** Waits `ms`; resolves false at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** SSE with data lines only, ending in `[DONE]` (Chat Completions). */
export function sseData(chunks: unknown[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
}

/** SSE with an `event:` line named after each event's `type` (Responses, Messages). */
export function sseEvents(events: ({ type: string } & Record<string, unknown>)[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** Settings for a test provider at `baseUrl`. */
export function testSettings(
  baseUrl: string,
  wireApi: WireApi,
  overrides: Partial<ProviderSettings> = {},
): ProviderSettings {
  return {
    id: "test",
    name: "Test",
    baseUrl,
    wireApi,
    apiKey: "sk-test",
    envKey: "TEST_API_KEY",
    headers: {},
    queryParams: {},
    requestMaxRetries: 2,
    streamMaxRetries: 2,
    streamIdleTimeoutMs: 2_000,
    streamMaxLineBytes: DEFAULT_STREAM_MAX_LINE_BYTES,
    streamMaxReplyBytes: DEFAULT_STREAM_MAX_REPLY_BYTES,
    compat: {},
    ...overrides,
  };
}

/** A one-message request. */
export function simpleRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "test-model",
    system: systemText("Be brief"),
    messages: [{ role: "user", blocks: [{ type: "text", text: "hi" }] }],
    tools: [],
    ...overrides,
  };
}

/** Every event of one stream. */
export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
