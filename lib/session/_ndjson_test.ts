import assert from "node:assert/strict";
import { ndJsonStream } from "./_ndjson.ts";

/** Runs the codec over `chunks` as stdin; returns the messages read and the lines written. */
async function run(chunks: string[], replies: unknown[] = []) {
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  let written = "";
  const decoder = new TextDecoder();
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => void (written += decoder.decode(chunk, { stream: true })),
  });
  const codec = ndJsonStream<Record<string, unknown>>(output, input);
  const writer = codec.writable.getWriter();
  await Promise.all(replies.map((reply) => writer.write(reply as Record<string, unknown>)));
  const read = await Array.fromAsync(codec.readable);
  return { read, written: written.split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

Deno.test("ndJsonStream() reads messages split across chunks, with LF or CRLF, the last without one", async () => {
  const { read, written } = await run([
    '{"id":1,',
    '"method":"a"}\r\n\n  \n{"id":2}\n{"id"',
    ":3}",
  ]);
  assert.deepEqual(read, [{ id: 1, method: "a" }, { id: 2 }, { id: 3 }]);
  assert.deepEqual(written, []);
});

Deno.test("ndJsonStream() answers bad lines with id null and goes on reading", async () => {
  const { read, written } = await run(["not json\n", "[1,2]\n", "42\n", '{"id":4}\n']);
  assert.deepEqual(read, [{ id: 4 }]);
  assert.deepEqual(written, [
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid request: JSON-RPC batches are not supported" },
    },
    { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request", data: 42 } },
  ]);
});

Deno.test("ndJsonStream() writes each message as one line, in the order written", async () => {
  const replies = Array.from(
    { length: 20 },
    (_, id) => ({ jsonrpc: "2.0", id, result: "x".repeat(id) }),
  );
  const { written } = await run([], replies);
  assert.deepEqual(written, replies);
});
