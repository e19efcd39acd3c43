/**
 * JSON-RPC messages as newline-delimited JSON over a pair of byte streams, for the stdio runner
 * (`stdio_protocol.ts`). Written here rather than taken from the ACP SDK so that
 * `interpreter mcp-server` does not load that SDK (and its schemas) at start. A line that is not
 * JSON is answered with a parse error (-32700), a batch or a non-object with an invalid-request
 * error (-32600), each with `id: null`, and reading goes on; blank lines are skipped; LF and CRLF
 * end lines; a line over 32 MiB ends the stream with an error.
 */

/** The longest message read, in bytes. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** The messages of a connection: read from `input`, written to `output`. */
export interface NdJsonStreams<T> {
  readable: ReadableStream<T>;
  writable: WritableStream<T>;
}

/** The error response to a line no request id can be read from. */
function errorLine(code: number, message: string, data?: unknown) {
  return { jsonrpc: "2.0", id: null, error: { code, message, data } };
}

/** Splits bytes into lines without their LF or CRLF, across chunks, each at most `max` bytes. */
class Lines {
  #pending: Uint8Array[] = [];
  #length = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  *push(chunk: Uint8Array): Generator<Uint8Array> {
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      this.#add(chunk.subarray(start, end));
      yield this.#take();
      start = end + 1;
    }
    this.#add(chunk.subarray(start));
  }

  /** The last line, when the input ended without a newline. */
  flush(): Uint8Array | undefined {
    return this.#length > 0 ? this.#take() : undefined;
  }

  #add(part: Uint8Array): void {
    if (part.length === 0) return;
    this.#length += part.length;
    if (this.#length > this.#max + 1) {
      throw new Error(`A message on stdin is over the limit of ${this.#max} bytes`);
    }
    this.#pending.push(part.slice());
  }

  #take(): Uint8Array {
    const line = new Uint8Array(this.#length);
    let at = 0;
    for (const part of this.#pending) {
      line.set(part, at);
      at += part.length;
    }
    this.#pending = [];
    this.#length = 0;
    const end = line.at(-1) === CR ? line.length - 1 : line.length;
    if (end > this.#max) {
      throw new Error(`A message on stdin is over the limit of ${this.#max} bytes`);
    }
    return line.subarray(0, end);
  }
}

/** Newline-delimited JSON-RPC messages over `input` and `output` (see the module comment). */
export function ndJsonStream<T>(
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
): NdJsonStreams<T> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let writing = Promise.resolve();
  const write = (message: unknown): Promise<void> => {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const done = writing.then(async () => {
      const writer = output.getWriter();
      try {
        await writer.write(bytes);
      } finally {
        writer.releaseLock();
      }
    });
    writing = done.catch(() => {});
    return done;
  };
  /** The message of a line, or undefined when it was blank or answered with an error. */
  const messageOf = async (bytes: Uint8Array): Promise<T | undefined> => {
    const text = decoder.decode(bytes).trim();
    if (!text) return undefined;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      await write(errorLine(-32700, "Parse error"));
      return undefined;
    }
    if (Array.isArray(message)) {
      await write(errorLine(-32600, "Invalid request: JSON-RPC batches are not supported"));
      return undefined;
    }
    if (typeof message !== "object" || message === null) {
      await write(errorLine(-32600, "Invalid request", message));
      return undefined;
    }
    return message as T;
  };
  return { readable: readMessages(input, messageOf), writable: new WritableStream({ write }) };
}

/** The messages `messageOf` makes of `input`'s lines, read as fast as they come. */
function readMessages<T>(
  input: ReadableStream<Uint8Array>,
  messageOf: (line: Uint8Array) => Promise<T | undefined>,
): ReadableStream<T> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;
  return new ReadableStream<T>({
    async start(controller) {
      const lines = new Lines(MAX_MESSAGE_BYTES);
      const take = async (line: Uint8Array) => {
        const message = await messageOf(line);
        if (message !== undefined && !cancelled) controller.enqueue(message);
      };
      reader = input.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (cancelled) return;
          if (done) break;
          for (const line of lines.push(value)) await take(line);
        }
        const last = lines.flush();
        if (last) await take(last);
        if (!cancelled) controller.close();
      } catch (error) {
        if (cancelled) return;
        controller.error(error);
        reader.cancel(error).catch(() => {});
      } finally {
        reader.releaseLock();
      }
    },
    cancel(reason) {
      cancelled = true;
      return reader?.cancel(reason);
    },
  });
}
