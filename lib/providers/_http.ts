/** HTTP concerns shared by the adapters: SDK client options, failure mapping and retry timing. */
import type { ProviderFailure } from "../model/stream.ts";
import { rec, str } from "./_blocks.ts";
import type { ProviderSettings } from "./types.ts";

/** The key sent to providers that need none; the SDKs refuse to run without one. */
const KEYLESS_PLACEHOLDER = "not-needed";
/** The longest wait a server's Retry-After may impose. */
const MAX_SERVER_DELAY_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const MAX_DETAIL_CHARS = 500;
/** The SDK request timeout when the idle watchdog is off (`stream_idle_timeout_ms = 0`). */
const DEFAULT_SDK_TIMEOUT_MS = 600_000;
/** Error types and codes that providers report inside a stream for transient failures. */
const TRANSIENT_ERROR_KINDS = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "server_error",
  "rate_limit_exceeded",
]);

/** Options common to both SDK clients. Every option is explicit so no SDK environment variable applies. */
export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  defaultHeaders: Record<string, string | null>;
  defaultQuery: Record<string, string>;
  maxRetries: 0;
  timeout: number;
  logLevel: "off";
}

/**
 * Builds the SDK client options for `settings`. Retries are ours (the SDK makes one attempt),
 * and headers named in the SDK's custom-headers variable are removed unless the settings set them.
 */
export function sdkClientOptions(
  settings: ProviderSettings,
  opts: { baseUrl: string; customHeadersEnv: string },
): SdkClientOptions {
  const headers: Record<string, string | null> = {};
  for (const name of envHeaderNames(opts.customHeadersEnv)) headers[name] = null;
  for (const [name, value] of Object.entries(settings.headers)) {
    delete headers[name.toLowerCase()];
    headers[name] = value;
  }
  return {
    apiKey: settings.apiKey || KEYLESS_PLACEHOLDER,
    baseURL: opts.baseUrl,
    defaultHeaders: headers,
    defaultQuery: { ...settings.queryParams },
    maxRetries: 0,
    // Our idle watchdog fires first; this only bounds a server that never sends headers.
    timeout: settings.streamIdleTimeoutMs > 0
      ? Math.max(2 * settings.streamIdleTimeoutMs, 1_000)
      : DEFAULT_SDK_TIMEOUT_MS,
    logLevel: "off",
  };
}

/** Header names listed in an SDK custom-headers variable (`Name: value` lines), lowercased. */
function envHeaderNames(variable: string): string[] {
  let value: string | undefined;
  try {
    // Never prompt for access just to read this.
    const granted = Deno.permissions.querySync({ name: "env", variable }).state === "granted";
    value = granted ? Deno.env.get(variable) : undefined;
  } catch {
    return [];
  }
  return (value ?? "").split("\n").filter((line) => line.includes(":"))
    .map((line) => line.slice(0, line.indexOf(":")).trim().toLowerCase()).filter(Boolean);
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

/** Maps anything an SDK call throws to a failure the user can act on. */
export function describeError(
  err: unknown,
  ctx: { settings: ProviderSettings; model: string },
): DescribedFailure {
  const e = rec(err);
  const name = ctx.settings.name;
  const headers = e.headers instanceof Headers ? e.headers : undefined;
  if (typeof e.status === "number") {
    const fallback = clean(String(e.message).replace(/^\d{3} /, ""));
    const failure = statusFailure(e.status, bodyDetail(e.error) ?? fallback, ctx);
    const override = headers?.get("x-should-retry");
    if (override === "true" || override === "false") failure.retryable = override === "true";
    return { failure, retryAfterMs: retryAfterMs(headers) };
  }
  if (err instanceof SyntaxError) {
    const message = `Malformed stream from ${name}: ${clean(err.message)}`;
    return {
      failure: { message, hint: "The server sent data that is not valid JSON", retryable: false },
    };
  }
  if (e.error !== undefined) {
    const body = rec(e.error);
    const kinds = [rec(body.error).type, body.type, body.code];
    const retryable = kinds.some(isTransientKind);
    const message = `${name} reported an error: ${bodyDetail(e.error) ?? clean(String(e.message))}`;
    return { failure: { message, retryable } };
  }
  const cause = rec(e.cause);
  const detail = clean(str(cause.message) ?? str(e.message) ?? String(err));
  return {
    failure: {
      message: `Cannot reach ${name} at ${ctx.settings.baseUrl}: ${detail}`,
      hint: "Check the network, and that base_url points at a running server",
      retryable: true,
    },
  };
}

/** A failure for an HTTP error status, with the provider's own message as detail. */
function statusFailure(
  status: number,
  detail: string,
  ctx: { settings: ProviderSettings; model: string },
): ProviderFailure {
  const { settings } = ctx;
  const base = { status, message: `${settings.name} returned HTTP ${status}: ${detail}` };
  if (status === 401 || status === 403) {
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

/** An SDK message in our style: trimmed, without a final period. */
function clean(message: string): string {
  return message.trim().replace(/\.$/, "");
}

/** The human-readable part of an error body, shortened. */
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
