/**
 * A raw HTTP/1.1 server on 127.0.0.1 that streams scripted SSE replies and can cut one off in
 * the middle: with a TCP reset (the request is left unread, so closing the socket sends RST) or
 * with a plain close before the end of the chunked body. Test helper for dropped streams, which
 * `Deno.serve` cannot produce. A reply can also be an error status, so that failed requests and
 * broken streams can follow each other.
 */
import { planReply, type Wire } from "./plan.ts";
import { chatStreamFrames } from "./render_chat.ts";
import { geminiStreamFrames } from "./render_gemini.ts";
import { messagesStreamFrames } from "./render_messages.ts";
import { responsesStreamFrames } from "./render_responses.ts";

/**
 * One scripted reply: SSE frames (or NDJSON lines), sent whole or cut after `cut.after` frames;
 * or, with `status`, that HTTP error status with a JSON error body and `retry-after: 0`.
 */
export interface DropReply {
  frames?: string[];
  status?: number;
  /**
   * "reset" waits for `release()` once the first frames are out, then resets the connection;
   * "close" closes it at once. Either way the chunked body never ends.
   */
  cut?: { after: number; how: "reset" | "close" };
}

/** A running drop server; `baseUrl` ends in `/v1`. */
export interface DropServer extends AsyncDisposable {
  baseUrl: string;
  /** How many requests arrived (cut ones included). */
  requests(): number;
  /** Lets every held "reset" cut go ahead. */
  release(): void;
}

const encoder = new TextEncoder();
/** A single-byte decoding, so string lengths are byte counts. */
const bytesAsText = new TextDecoder("latin1");
const HEAD_END = "\r\n\r\n";

/** Serves `replies` in order, one per connection; later connections get HTTP 500. */
export function serveDrops(replies: DropReply[]): DropServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const queue = [...replies];
  const tasks: Promise<void>[] = [];
  let count = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const accept = (async () => {
    try {
      for await (const conn of listener) {
        count++;
        tasks.push(answer(conn, queue.shift(), released));
      }
    } catch {
      // the listener was closed
    }
  })();
  return {
    baseUrl: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1`,
    requests: () => count,
    release,
    async [Symbol.asyncDispose]() {
      release();
      listener.close();
      await accept;
      await Promise.all(tasks);
    },
  };
}

/** Answers one connection; never rejects. */
async function answer(conn: Deno.Conn, reply: DropReply | undefined, released: Promise<void>) {
  try {
    if (reply?.cut?.how === "reset") {
      // Read only the first bytes: closing with the rest unread makes the kernel send RST.
      await conn.read(new Uint8Array(1));
    } else {
      await readRequest(conn);
    }
    if (!reply) {
      await write(conn, "HTTP/1.1 500 No reply left\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    if (reply.status !== undefined) {
      await write(conn, errorReply(reply.status));
      return;
    }
    await write(
      conn,
      "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n" +
        "transfer-encoding: chunked\r\nconnection: close\r\n\r\n",
    );
    const frames = (reply.frames ?? []).slice(0, reply.cut?.after);
    for (const frame of frames) await write(conn, chunk(frame));
    if (reply.cut?.how === "reset") await released;
    else if (!reply.cut) await write(conn, "0\r\n\r\n");
  } catch {
    // the client went away first
  } finally {
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}

/** A whole HTTP/1.1 error response with `status`. */
function errorReply(status: number): string {
  const body = JSON.stringify({
    error: { message: `Scripted error ${status}`, type: "api_error" },
  });
  return `HTTP/1.1 ${status} Scripted error\r\ncontent-type: application/json\r\n` +
    `retry-after: 0\r\ncontent-length: ${encoder.encode(body).length}\r\n` +
    `connection: close\r\n\r\n${body}`;
}

/** Reads the request head and its `content-length` body. */
async function readRequest(conn: Deno.Conn): Promise<void> {
  let text = "";
  const buf = new Uint8Array(16 * 1024);
  for (;;) {
    const end = text.indexOf(HEAD_END);
    if (end >= 0) {
      const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (text.length >= end + HEAD_END.length + length) return;
    }
    const n = await conn.read(buf);
    if (n === null) return;
    text += bytesAsText.decode(buf.subarray(0, n));
  }
}

async function write(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  for (let sent = 0; sent < bytes.length;) sent += await conn.write(bytes.subarray(sent));
}

/** One HTTP/1.1 chunk. */
function chunk(text: string): string {
  return `${encoder.encode(text).length.toString(16)}\r\n${text}\r\n`;
}

/** The SSE frames of a streamed text reply on `wire`, rendered by the fake provider. */
export function textFrames(wire: Wire, text: string, opts: { chunkSize?: number } = {}): string[] {
  const plan = planReply({ text }, {
    wire,
    model: "test-model",
    ids: new Map(),
    requestChars: 100,
    chunkSize: opts.chunkSize ?? 8,
  });
  if (wire === "chat") {
    return chatStreamFrames(plan, { includeUsage: true, reasoningField: "reasoning_content" });
  }
  if (wire === "gemini") return geminiStreamFrames(plan);
  return wire === "responses" ? responsesStreamFrames(plan) : messagesStreamFrames(plan);
}
