import assert from "node:assert/strict";
import { StreamInterruptedError, StreamReportedError } from "./_http.ts";
import { jsonEvents } from "./_sse.ts";

type Piece = string | Uint8Array;

/** A body that delivers `pieces` as separate chunks and records whether it was cancelled. */
function body(pieces: Piece[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  const encoder = new TextEncoder();
  let cancelled = false;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index++];
      if (piece === undefined) controller.close();
      else controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function all(pieces: Piece[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const data of jsonEvents(body(pieces).stream)) out.push(data);
  return out;
}

Deno.test("jsonEvents() parses events split across chunks and ignores event names", async () => {
  const out = await all([
    'event: message_start\ndata: {"type":"mess',
    'age_start"}\n',
    '\nevent: wrong_name\r\ndata: {"type":"ping"}\r\n\r\n',
    'data: {"a":\ndata: 1}\n\n',
  ]);
  assert.deepEqual(out, [{ type: "message_start" }, { type: "ping" }, { a: 1 }]);
});

Deno.test("jsonEvents() stops at [DONE] and cancels the rest of the body", async () => {
  const { stream, cancelled } = body(['data: {"n":1}\n\ndata: [DONE]\n\n', 'data: {"n":2}\n\n']);
  const out: unknown[] = [];
  for await (const data of jsonEvents(stream)) out.push(data);
  assert.deepEqual(out, [{ n: 1 }]);
  assert.equal(cancelled(), true);
});

Deno.test("jsonEvents() skips comments and events without data", async () => {
  const out = await all([": ping\n\n", "event: ping\ndata:\n\n", 'data: {"n":1}\n\n']);
  assert.deepEqual(out, [{ n: 1 }]);
});

Deno.test("jsonEvents() throws StreamInterruptedError when the body breaks off", async () => {
  const reset = new TypeError("error reading a body from connection");
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(reset);
      sent = true;
      controller.enqueue(new TextEncoder().encode('data: {"n":1}\n\n'));
    },
  });
  const out: unknown[] = [];
  const err = await (async () => {
    for await (const data of jsonEvents(stream)) out.push(data);
  })().then(() => undefined, (e: unknown) => e);
  assert.deepEqual(out, [{ n: 1 }]);
  assert.ok(err instanceof StreamInterruptedError);
  assert.equal(err.cause, reset);
});

Deno.test("jsonEvents() throws SyntaxError on data that is not JSON", async () => {
  await assert.rejects(all(['data: {"n":1}\n\n', "data: {not json\n\n"]), SyntaxError);
});

Deno.test("jsonEvents() throws StreamReportedError on a payload with an error member", async () => {
  const event = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
  const err = await all([`event: error\ndata: ${JSON.stringify(event)}\n\n`]).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof StreamReportedError);
  assert.deepEqual(err.error, event);
  assert.deepEqual(await all(['data: {"n":1,"error":null}\n\n']), [{ n: 1, error: null }]);
});

Deno.test("jsonEvents() drops an event the body ends before finishing", async () => {
  assert.deepEqual(await all(['data: {"n":1}\n\n', 'data: {"n":2}']), [{ n: 1 }]);
});

Deno.test("jsonEvents() decodes a character split across chunks", async () => {
  const bytes = new TextEncoder().encode('data: {"t":"é"}\n\n');
  const cut = bytes.indexOf(0xc3) + 1;
  assert.deepEqual(await all([bytes.slice(0, cut), bytes.slice(cut)]), [{ t: "é" }]);
});

Deno.test("jsonEvents() stops a body that keeps sending once the signal aborts", async () => {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(encoder.encode('data: {"n":1}\n\n'));
    },
  });
  const abort = new AbortController();
  const out: unknown[] = [];
  const err = await (async () => {
    for await (const data of jsonEvents(stream, abort.signal)) {
      out.push(data);
      if (out.length === 3) abort.abort(new Error("stalled"));
    }
  })().then(() => undefined, (e: unknown) => e);
  assert.equal(out.length, 3);
  assert.ok(err instanceof Error);
  assert.equal(err.message, "stalled");
});
