/** HTTP concerns shared by the adapters: request building, failure mapping and retry timing. */
import { jsonBody } from "./_json_body.ts";
import type { ProviderFailure } from "../model/stream.ts";
import { rec, str } from "./_blocks.ts";
import {
  limitFailure,
  MAX_SIDE_BODY_BYTES,
  readCapped,
  StreamLimitError,
} from "./_stream_limits.ts";
import type { ProviderSettings } from "./types.ts";

/** Sent with every request; a constant, so the version module stays out of this layer. */
const USER_AGENT = "interpreter";
/** The longest wait a server's Retry-After may impose. */
const MAX_SERVER_DELAY_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const MAX_DETAIL_CHARS = 500;
const MAX_TITLE_CHARS = 100;
/** Error types and codes that providers report inside a stream for transient failures. */
const TRANSIENT_ERROR_KINDS = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "server_error",
  "rate_limit_exceeded",
  // Gemini's `error.status` values for overload, rate limits and server faults.
  "RESOURCE_EXHAUSTED",
  "UNAVAILABLE",
  "INTERNAL",
  "DEADLINE_EXCEEDED",
]);

/** One streaming request, ready to send. */
export interface WireRequest {
  url: string;
  headers: Headers;
  body: unknown;
}

/** A response with an error status. `error` is the parsed body, or its text when not JSON. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Headers;
  readonly error: unknown;
  readonly url?: string;
  constructor(
    status: number,
    opts: { headers: Headers; body: unknown; statusText?: string; url?: string },
  ) {
    super(`${status} ${opts.statusText ?? ""}`.trim());
    this.name = "HttpError";
    this.status = status;
    this.headers = opts.headers;
    this.error = opts.body;
    this.url = opts.url;
  }
}

/** A success status whose body is an HTML page (a captive portal, a proxy's page), not a stream. */
export class HtmlReplyError extends Error {
  readonly url: string;
  readonly html: string;
  constructor(url: string, html: string) {
    super(`Expected an event stream from "${url}", got an HTML page`);
    this.name = "HtmlReplyError";
    this.url = url;
    this.html = html;
  }
}

/** The body of a streamed reply broke off: the connection was reset or closed mid-stream. */
export class StreamInterruptedError extends Error {
  constructor(cause: unknown) {
    super("The stream was interrupted", { cause });
    this.name = "StreamInterruptedError";
  }
}

/** An error object a server sent inside a stream; `error` is the whole event. */
export class StreamReportedError extends Error {
  readonly error: unknown;
  constructor(event: unknown) {
    super("The stream reported an error");
    this.name = "StreamReportedError";
    this.error = event;
  }
}

/** `baseUrl` with `path` appended to its path (trailing slashes dropped) and `query` added. */
export function endpointUrl(
  baseUrl: string,
  opts: { path: string; query?: Record<string, string> },
): string {
  const url = new URL(baseUrl);
  url.pathname = trimBaseUrl(url.pathname) + opts.path;
  for (const [name, value] of Object.entries(opts.query ?? {})) url.searchParams.set(name, value);
  return url.href;
}

/**
 * Headers for a streaming JSON request: our defaults, then the wire's `auth` headers, then the
 * provider's configured headers, which win over both (names compare case-insensitively).
 */
export function requestHeaders(
  settings: ProviderSettings,
  auth: Record<string, string>,
  /** The harness's headers (a user agent, beta flags); auth and configured headers win. */
  harness: Record<string, string> = {},
): Headers {
  const headers = new Headers({
    "content-type": "application/json",
    accept: "text/event-stream",
    "user-agent": USER_AGENT,
    ...harness,
    ...auth,
  });
  // A configured header wins over the harness's; an empty one takes the harness's away.
  for (const [name, value] of Object.entries(settings.headers)) {
    if (value === "") headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * Posts `request` and resolves once response headers arrive; an error status throws `HttpError`
 * with the start of its body (a server could send an endless one).
 */
export async function post(request: WireRequest, signal: AbortSignal): Promise<Response> {
  const response = await fetch(request.url, {
    method: "POST",
    headers: request.headers,
    body: jsonBody(request.body),
    signal,
  });
  if (response.ok) return response;
  const { text } = await readCapped(response.body, MAX_SIDE_BODY_BYTES);
  throw new HttpError(response.status, {
    headers: response.headers,
    body: parseBody(text),
    statusText: response.statusText,
    url: request.url,
  });
}

/** Whether a reply is an HTML page, by its content type or by how its text starts. */
export function isHtml(contentType: string | null | undefined, body: unknown): boolean {
  if (/^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? "")) return true;
  return typeof body === "string" && /^\s*<(!doctype\s+html|html)[\s>]/i.test(body);
}

/** A body as JSON when it parses, else its text; undefined when empty. */
function parseBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Removes trailing slashes from a base URL. */
export function trimBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** What a failed request means, plus the server's requested retry delay. */
export interface DescribedFailure {
  failure: ProviderFailure;
  retryAfterMs?: number;
}

/** Whether an error type or code reported inside a stream names a transient failure. */
export function isTransientKind(kind: unknown): boolean {
  return typeof kind === "string" && TRANSIENT_ERROR_KINDS.has(kind);
}

/** Maps anything a request or its stream throws to a failure the user can act on. */
export function describeError(
  err: unknown,
  ctx: { settings: ProviderSettings; model: string },
): DescribedFailure {
  const e = rec(err);
  const name = ctx.settings.name;
  const headers = e.headers instanceof Headers ? e.headers : undefined;
  if (err instanceof HtmlReplyError) return { failure: htmlFailure(err.html, ctx, err) };
  if (err instanceof StreamLimitError) return { failure: limitFailure(err, ctx.settings) };
  if (err instanceof StreamInterruptedError) {
    return {
      failure: {
        message: `The stream from ${name} was interrupted: ` +
          "the connection was closed or reset before the reply was complete",
        hint: "The provider or a proxy in between dropped the connection: try again later",
        retryable: true,
      },
    };
  }
  if (typeof e.status === "number") {
    const fallback = clean(String(e.message).replace(/^\d{3}\s*/, ""));
    const keyRefused = e.status === 400 &&
      JSON.stringify(e.error ?? "").includes("API_KEY_INVALID");
    let failure = statusFailure(e.status, bodyDetail(e.error) ?? fallback, { ...ctx, keyRefused });
    if (isHtml(headers?.get("content-type"), e.error)) {
      const url = str(e.url) ?? ctx.settings.baseUrl;
      const page = htmlFailure(String(e.error ?? ""), ctx, { url, status: e.status });
      failure = { ...page, retryable: failure.retryable };
    }
    const override = headers?.get("x-should-retry");
    if (override === "true" || override === "false") failure.retryable = override === "true";
    return { failure, retryAfterMs: retryAfterMs(headers) ?? retryInfoMs(e.error) };
  }
  if (err instanceof SyntaxError) {
    const message = `Malformed stream from ${name}: ${clean(err.message)}`;
    const hint = "The reply is not a stream of JSON events: check base_url and wire_api";
    return { failure: { message, hint, retryable: false } };
  }
  if (e.error !== undefined) {
    const body = rec(e.error);
    const inner = rec(body.error);
    const kinds = [inner.type, inner.code, inner.status, body.type, body.code];
    const retryable = kinds.some(isTransientKind);
    const message = `${name} reported an error: ${bodyDetail(e.error) ?? clean(String(e.message))}`;
    return { failure: { message, retryable } };
  }
  const cause = rec(e.cause);
  // Deno's fetch wraps the cause in a prefix that repeats the URL: keep the cause alone.
  const detail = clean(str(cause.message) ?? str(e.message) ?? String(err))
    .replace(/^error sending request for url \(.*?\): (client error \(\w+\): )?/, "");
  return {
    failure: {
      message: `Cannot reach ${name} at ${ctx.settings.baseUrl}: ${detail}`,
      hint: "Check the network, and that base_url points at a running server",
      retryable: true,
    },
  };
}

/**
 * A failure for an HTML page where an API reply belongs, naming the page's title and the URL.
 * Without `status` the page came with a success status, in place of the event stream.
 */
function htmlFailure(
  html: string,
  ctx: { settings: ProviderSettings },
  opts: { url: string; status?: number },
): ProviderFailure {
  const { name, baseUrl } = ctx.settings;
  const title = htmlTitle(html);
  const page = title === undefined ? "an HTML page" : `an HTML page ("${title}")`;
  const what = opts.status === undefined
    ? `${name} answered with ${page} instead of an API stream`
    : `${name} returned HTTP ${opts.status} with ${page} instead of an API reply`;
  return {
    ...(opts.status === undefined ? {} : { status: opts.status }),
    message: `${what}: ${opts.url}`,
    hint: `Check base_url "${baseUrl}", and any proxy (HTTPS_PROXY, HTTP_PROXY) ` +
      "or network sign-in page between here and the provider",
    retryable: false,
  };
}

/** The `<title>` of an HTML page, whitespace collapsed and shortened; undefined when absent. */
function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  const title = match?.[1].replace(/\s+/g, " ").trim();
  if (!title) return undefined;
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS)}…` : title;
}

/** A failure for an HTTP error status, with the provider's own message as detail. */
function statusFailure(
  status: number,
  detail: string,
  ctx: { settings: ProviderSettings; model: string; keyRefused?: boolean },
): ProviderFailure {
  const { settings } = ctx;
  const what = `${settings.name} returned HTTP ${status}`;
  const base = { status, message: detail === "" ? what : `${what}: ${detail}` };
  // Gemini refuses a bad key with 400 and the reason API_KEY_INVALID (`keyRefused`).
  if (status === 401 || status === 403 || ctx.keyRefused) {
    const where = settings.envKey
      ? `$${settings.envKey}`
      : `the configuration of provider "${settings.id}"`;
    return { ...base, hint: `Check the API key in ${where}`, retryable: false };
  }
  if (status === 404) {
    const hint = `Check base_url "${settings.baseUrl}" and model "${ctx.model}"`;
    return { ...base, hint, retryable: false };
  }
  if (status === 429) {
    return {
      ...base,
      hint: "Rate limited: wait a moment, or check the plan's limits",
      retryable: true,
    };
  }
  if (status >= 500) {
    return { ...base, hint: "The provider failed on its side: try again later", retryable: true };
  }
  return { ...base, retryable: status === 408 || status === 409 };
}

/** A message in our style: trimmed, without a final period. */
function clean(message: string): string {
  return message.trim().replace(/\.$/, "");
}

/** The human-readable part of an error body (`error.message` for OpenAI and Anthropic), shortened. */
function bodyDetail(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  const b = rec(body);
  const text = typeof body === "string"
    ? body
    : str(rec(b.error).message) ?? str(b.error) ?? str(b.message) ?? str(b.detail) ??
      JSON.stringify(body);
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return trimmed.length > MAX_DETAIL_CHARS ? `${trimmed.slice(0, MAX_DETAIL_CHARS)}…` : trimmed;
}

/**
 * The delay a server asks for: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP
 * date. Undefined when absent or unparsable; capped at one minute.
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  let delay = Number.isFinite(ms) ? ms : undefined;
  const header = headers.get("retry-after");
  if (delay === undefined && header) {
    const seconds = Number(header.trim());
    delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  }
  if (delay === undefined || !Number.isFinite(delay)) return undefined;
  return Math.min(Math.max(0, delay), MAX_SERVER_DELAY_MS);
}

/**
 * The delay in a Gemini error body's `RetryInfo` detail (`"retryDelay": "30s"`), capped like
 * Retry-After; undefined when absent.
 */
function retryInfoMs(body: unknown): number | undefined {
  const details = rec(rec(body).error).details;
  if (!Array.isArray(details)) return undefined;
  const delay = details.map((d) => str(rec(d).retryDelay)).find((d) => d !== undefined);
  const seconds = Number.parseFloat(delay ?? "");
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(Math.max(0, seconds * 1000), MAX_SERVER_DELAY_MS);
}

/** The wait before retry number `attempt` (1-based): the server's delay, else jittered backoff. */
export function retryDelayMs(
  attempt: number,
  opts: { serverDelayMs?: number; random?: () => number } = {},
): number {
  if (opts.serverDelayMs !== undefined) return opts.serverDelayMs;
  const backoff = Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  const jitter = 0.8 + 0.4 * (opts.random ?? Math.random)();
  return Math.round(backoff * jitter);
}
