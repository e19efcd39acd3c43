/** Ollama's streaming transport: one POST, then one JSON object per line of the body (NDJSON). */
import { rec } from "./_blocks.ts";
import { bodyText } from "./_body_text.ts";
import { HtmlReplyError, isHtml, post, StreamReportedError, type WireRequest } from "./_http.ts";
import { MAX_SIDE_BODY_BYTES, readCapped, type StreamLimits } from "./_stream_limits.ts";

/**
 * Sends `request` and resolves, once response headers arrive, to the JSON objects of its body,
 * bounded by `limits`. An HTML page in place of the stream (a proxy, a sign-in page) throws
 * `HtmlReplyError`; a single JSON reply is read as a one-line stream.
 */
export async function openNdjsonStream(
  request: WireRequest,
  signal: AbortSignal,
  limits: StreamLimits,
): Promise<AsyncIterable<unknown>> {
  const response = await post(request, signal);
  if (isHtml(response.headers.get("content-type"), undefined)) {
    throw new HtmlReplyError(
      request.url,
      (await readCapped(response.body, MAX_SIDE_BODY_BYTES)).text,
    );
  }
  return ndjsonObjects(response.body ?? new ReadableStream(), signal, limits);
}

/**
 * The JSON objects of an NDJSON body, in order; blank lines are skipped. A line that is not JSON
 * throws `SyntaxError`; an object with an `error` member (how Ollama reports a failure midway)
 * throws `StreamReportedError`; a body that breaks off throws `StreamInterruptedError`, one that
 * passes `limits` throws `StreamLimitError`. When `signal` aborts, the body is cancelled and the
 * abort reason thrown.
 */
async function* ndjsonObjects(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  limits?: StreamLimits,
): AsyncGenerator<unknown> {
  let pending = "";
  const parse = function* (lines: string[]) {
    for (const line of lines) {
      if (line.trim() === "") continue;
      const data: unknown = JSON.parse(line);
      const error = rec(data).error;
      if (error !== undefined && error !== null && error !== "") {
        throw new StreamReportedError(data);
      }
      yield data;
    }
  };
  for await (const chunk of bodyText(body, signal, limits)) {
    // Splitting only when a line ends keeps a long line from being scanned once per chunk.
    if (!chunk.includes("\n")) {
      pending += chunk;
      continue;
    }
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    yield* parse(lines);
  }
  yield* parse([pending]);
}
