/** Ollama's streaming transport: one POST, then one JSON object per line of the body (NDJSON). */
import { rec } from "./_blocks.ts";
import { bodyText } from "./_body_text.ts";
import { HtmlReplyError, isHtml, post, StreamReportedError, type WireRequest } from "./_http.ts";

/**
 * Sends `request` and resolves, once response headers arrive, to the JSON objects of its body.
 * An HTML page in place of the stream (a proxy, a sign-in page) throws `HtmlReplyError`; a
 * single JSON reply is read as a one-line stream.
 */
export async function openNdjsonStream(
  request: WireRequest,
  signal: AbortSignal,
): Promise<AsyncIterable<unknown>> {
  const response = await post(request, signal);
  if (isHtml(response.headers.get("content-type"), undefined)) {
    throw new HtmlReplyError(request.url, await response.text());
  }
  return ndjsonObjects(response.body ?? new ReadableStream(), signal);
}

/**
 * The JSON objects of an NDJSON body, in order; blank lines are skipped. A line that is not JSON
 * throws `SyntaxError`; an object with an `error` member (how Ollama reports a failure midway)
 * throws `StreamReportedError`; a body that breaks off throws `StreamInterruptedError`. When
 * `signal` aborts, the body is cancelled and the abort reason thrown.
 */
export async function* ndjsonObjects(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
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
  for await (const chunk of bodyText(body, signal)) {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    yield* parse(lines);
  }
  yield* parse([pending]);
}
