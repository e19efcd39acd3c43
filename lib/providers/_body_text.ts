/** Reading a streamed response body as text, the part every streaming transport shares. */
import { StreamInterruptedError } from "./_http.ts";
import { StreamGauge, type StreamLimits } from "./_stream_limits.ts";

/**
 * The decoded text of `body`, chunk by chunk. A body that breaks off throws
 * `StreamInterruptedError`; when `signal` aborts, the body is cancelled and the abort reason
 * thrown (a fetch's own abort does not stop a body that keeps sending). With `limits`, a line or
 * the whole body longer than its bound throws `StreamLimitError` before the chunk that passes it
 * is decoded. The reader is released however the caller stops.
 */
export async function* bodyText(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  limits?: StreamLimits,
): AsyncGenerator<string> {
  const gauge = limits && new StreamGauge(limits);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const cancel = () => reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read().catch((err: unknown) => {
        throw new StreamInterruptedError(err);
      });
      signal?.throwIfAborted();
      if (done) {
        const rest = decoder.decode();
        if (rest) yield rest;
        return;
      }
      gauge?.measure(value);
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    await reader.cancel().catch(() => {});
  }
}
