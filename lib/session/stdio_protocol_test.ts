import assert from "node:assert/strict";
import { type JsonRpcMessage, serveStdio, type StdioMessages } from "./stdio_protocol.ts";

/** A stdin fed line by line and a stdout collected as text. */
function fakeStdio() {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const stdin = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  let written = "";
  const decoder = new TextDecoder();
  const stdout = new WritableStream<Uint8Array>({
    write: (chunk) => void (written += decoder.decode(chunk, { stream: true })),
  });
  return {
    stdio: { stdin, stdout },
    send: (line: string) => feed.enqueue(new TextEncoder().encode(line + "\n")),
    end: () => feed.close(),
    lines: () => written.split("\n").filter(Boolean).map((l) => JSON.parse(l)),
  };
}

/**
 * A front end that answers each request with its method, and records what happened in order:
 * the owner's disposal and the connection's close.
 */
function echoServe(io: ReturnType<typeof fakeStdio>, stop?: AbortSignal) {
  const happened: string[] = [];
  const served = serveStdio({
    name: "test",
    stdio: io.stdio,
    stop,
    open: () => ({ [Symbol.asyncDispose]: () => Promise.resolve(void happened.push("disposed")) }),
    connect(_owner, messages: StdioMessages) {
      const writer = messages.writable.getWriter();
      const closed = (async () => {
        for await (const message of messages.readable) {
          const m = message as JsonRpcMessage & { id: number; method: string };
          happened.push(`read ${m.method}`);
          await writer.write({ jsonrpc: "2.0", id: m.id, result: { echo: m.method } });
        }
      })();
      return Promise.resolve({ closed, close: () => void happened.push("closed") });
    },
  });
  return { happened, served };
}

Deno.test("serveStdio() answers messages and ends when stdin ends, disposing before closing", async () => {
  const io = fakeStdio();
  const { happened, served } = echoServe(io);
  io.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
  io.end();
  assert.equal(await served, 0);
  assert.deepEqual(happened, ["read ping", "disposed", "closed"]);
  assert.deepEqual(io.lines(), [{ jsonrpc: "2.0", id: 1, result: { echo: "ping" } }]);
});

Deno.test("serveStdio() answers a line that is not JSON with a parse error and goes on", async () => {
  const io = fakeStdio();
  const { happened, served } = echoServe(io);
  io.send("this is not json");
  io.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "after" }));
  io.end();
  await served;
  const [parseError, answer] = io.lines();
  assert.equal(parseError.error.code, -32700);
  assert.deepEqual(answer, { jsonrpc: "2.0", id: 2, result: { echo: "after" } });
  assert.deepEqual(happened, ["read after", "disposed", "closed"]);
});

Deno.test("serveStdio() ends on a stop while stdin stays open", async () => {
  const io = fakeStdio();
  const stop = new AbortController();
  const { happened, served } = echoServe(io, stop.signal);
  stop.abort();
  assert.equal(await served, 0);
  assert.deepEqual(happened, ["disposed", "closed"]);
  io.end();
});
