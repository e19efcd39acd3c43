/** Server-sent event framing and streaming for the fake provider. */

/** One SSE frame: an optional `event:` line, one `data:` line, a blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`;
}

/** A typed SSE frame as the Responses and Messages APIs send it: `event:` equals `data.type`. */
export function typedFrame(data: { type: string }): string {
  return sseFrame(data, data.type);
}

/**
 * Streams frames one chunk each, so clients see separate reads. With `delayMs` the frames are
 * spaced out, which gives cancellation tests something to interrupt.
 */
export function sseResponse(frames: string[], delayMs: number): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= frames.length) {
        controller.close();
        return;
      }
      if (delayMs > 0 && next > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (next < frames.length) controller.enqueue(encoder.encode(frames[next++]));
    },
    cancel() {
      next = frames.length;
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    },
  });
}
