/**
 * Small JSON requests to a local model server's own API (Ollama's `/api/*`, LM Studio's
 * `/api/v1/*`): a short time bound, and failures sorted into "not running", an error status,
 * or a reply that is not JSON, so start-up can say which fix applies.
 */
import { formatBytes, readCapped } from "./_stream_limits.ts";

/** Local servers answer their metadata at once; longer means something is wrong. */
const LOCAL_TIMEOUT_MS = 5_000;
/** Metadata replies are kilobytes; a model's `/api/show` with its template and license stays far below. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** Why a request to a local server failed. */
export type LocalFailure = "unreachable" | "status" | "malformed";

/** A failed request to a local server; `body` is the parsed error body for "status". */
export class LocalServerError extends Error {
  readonly kind: LocalFailure;
  readonly status?: number;
  readonly body?: unknown;
  constructor(kind: LocalFailure, message: string, opts: { status?: number; body?: unknown } = {}) {
    super(message);
    this.name = "LocalServerError";
    this.kind = kind;
    this.status = opts.status;
    this.body = opts.body;
  }
}

/** Options of `localJson`: a POST body, headers, a bound and a caller's signal. */
export interface LocalJsonOptions {
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** GETs `url` (POSTs when `body` is given) and returns the parsed JSON reply. */
export async function localJson(url: string, opts: LocalJsonOptions = {}): Promise<unknown> {
  const timeoutMs = opts.timeoutMs ?? LOCAL_TIMEOUT_MS;
  const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  let response: Response;
  try {
    response = await fetch(url, {
      method: opts.body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    opts.signal?.throwIfAborted();
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    const detail = timedOut ? `no answer within ${timeoutMs / 1000} s` : causeOf(error);
    throw new LocalServerError("unreachable", `${url}: ${detail}`);
  }
  const { text, truncated } = await readCapped(response.body, MAX_REPLY_BYTES);
  if (truncated) {
    throw new LocalServerError(
      "malformed",
      `${url}: the reply is longer than ${formatBytes(MAX_REPLY_BYTES)}`,
    );
  }
  const body = parseJson(text);
  if (!response.ok) {
    throw new LocalServerError("status", `${url}: HTTP ${response.status}`, {
      status: response.status,
      body: body ?? text,
    });
  }
  if (body === undefined) {
    throw new LocalServerError("malformed", `${url}: the reply is not JSON`, { body: text });
  }
  return body;
}

/** The error text of a local server's error body: `{"error": "..."}` or `{"error": {message}}`. */
export function localErrorText(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() || undefined;
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The innermost message of a fetch failure ("Connection refused (os error 111)"). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } })?.cause?.message;
  const message = typeof cause === "string" ? cause : String((error as Error)?.message ?? error);
  return message.replace(/^error sending request for url \(.*?\): (client error \(\w+\): )?/, "");
}
