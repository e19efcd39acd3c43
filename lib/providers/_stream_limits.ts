/**
 * Bounds on what a model server may send: the longest line of a stream and the most bytes of one
 * reply. A server that is broken or hostile (a 400 MB line without a newline, content without
 * end) is stopped with an error naming the bound and the setting that raises it, instead of
 * filling memory. Bytes are counted as they arrive, before anything is kept. A reply sent slowly
 * enough to stay under its size bound for long is ended by its time bound (`_drive.ts`, the key
 * `stream_max_reply_ms`).
 */
import type { ProviderFailure } from "../model/stream.ts";
import type { ProviderSettings } from "./types.ts";

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Default longest line of a stream (an SSE line or an NDJSON line). The largest honest line is
 * one event that repeats a whole reply (Responses' `response.completed`, its encrypted reasoning
 * included), well under 2 MiB even at today's largest output limits; 16 MiB leaves a wide margin.
 */
export const DEFAULT_STREAM_MAX_LINE_BYTES = 16 * MIB;
/**
 * Default most bytes of one reply, framing included. Every delta of a few characters comes
 * wrapped in 100 to 300 bytes of JSON, so a reply at a 128k-token output limit is about 20 to
 * 40 MiB on the wire; 64 MiB covers that, and no model writes twice as much in one reply.
 */
export const DEFAULT_STREAM_MAX_REPLY_BYTES = 64 * MIB;
/** Most bytes read of a body that is not the stream (an error, an HTML page): its start says it all. */
export const MAX_SIDE_BODY_BYTES = 1 * MIB;

const LF = 0x0a;
const CR = 0x0d;

/** The two bounds, as the provider's settings carry them. */
export type StreamLimits = Pick<ProviderSettings, "streamMaxLineBytes" | "streamMaxReplyBytes">;

/** Which bound a stream passed. */
export type StreamLimit = "line" | "reply";

/** A stream passed one of its bounds; `maxBytes` is the bound. */
export class StreamLimitError extends Error {
  readonly limit: StreamLimit;
  readonly maxBytes: number;
  constructor(limit: StreamLimit, maxBytes: number) {
    super(`The stream passed its ${limit} limit of ${formatBytes(maxBytes)}`);
    this.name = "StreamLimitError";
    this.limit = limit;
    this.maxBytes = maxBytes;
  }
}

/** Counts the bytes of one reply as they arrive, and the bytes of its unfinished line. */
export class StreamGauge {
  #limits: StreamLimits;
  #reply = 0;
  #line = 0;

  constructor(limits: StreamLimits) {
    this.#limits = limits;
  }

  /** Counts `chunk`; throws `StreamLimitError` when the reply or one of its lines is too long. */
  measure(chunk: Uint8Array): void {
    this.#reply += chunk.length;
    if (this.#reply > this.#limits.streamMaxReplyBytes) {
      throw new StreamLimitError("reply", this.#limits.streamMaxReplyBytes);
    }
    let start = 0;
    let lf = chunk.indexOf(LF);
    let cr = chunk.indexOf(CR);
    while (lf >= 0 || cr >= 0) {
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      this.#checkLine(this.#line + end - start);
      this.#line = 0;
      start = end + 1;
      if (end === lf) lf = chunk.indexOf(LF, start);
      if (end === cr) cr = chunk.indexOf(CR, start);
    }
    this.#line += chunk.length - start;
    this.#checkLine(this.#line);
  }

  #checkLine(bytes: number): void {
    if (bytes > this.#limits.streamMaxLineBytes) {
      throw new StreamLimitError("line", this.#limits.streamMaxLineBytes);
    }
  }
}

/**
 * What passing a bound means. Not worth a retry: a server that sent this much sends it again,
 * and each attempt costs the whole bound once more.
 */
export function limitFailure(
  error: StreamLimitError,
  settings: Pick<ProviderSettings, "id" | "name">,
): ProviderFailure {
  const key = providerKey(
    settings.id,
    error.limit === "line" ? "stream_max_line_bytes" : "stream_max_reply_bytes",
  );
  const what = error.limit === "line" ? "a stream line longer than" : "a reply longer than";
  return {
    message: `${settings.name} sent ${what} ${formatBytes(error.maxBytes)}, ` +
      `the limit set by ${key}`,
    hint: `Raise ${key} in config.toml if replies this large are expected; ` +
      "otherwise check that base_url points at a working model server",
    retryable: false,
  };
}

/** The text of `body`, reading at most `maxBytes` of it; `truncated` says whether more was left. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!body) return { text: "", truncated: false };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let text = "";
  let left = maxBytes;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), truncated: false };
      if (value.length > left) {
        return { text: text + decoder.decode(value.subarray(0, left)), truncated: true };
      }
      left -= value.length;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** `bytes` for a message: "16 MiB", "64 KiB", "1000 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} bytes`;
}

/** The config key `key` of provider `id`: `model_providers.<id>.<key>`. */
export function providerKey(id: string, key: string): string {
  return `model_providers.${keyPart(id)}.${key}`;
}

/** A provider id as one part of a TOML key path, quoted when it is not a bare key. */
function keyPart(id: string): string {
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : JSON.stringify(id);
}
