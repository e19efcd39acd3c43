// deno-lint-ignore-file no-console -- the protocol front ends' log goes to stderr from here
/**
 * The one stdio runner of the protocol front ends, `interpreter acp` and `interpreter mcp-server`:
 * JSON-RPC messages as newline-delimited JSON on stdin and stdout (`_ndjson.ts`, which answers
 * a line that is not JSON with a parse error). Stdout carries the protocol and nothing
 * else: whatever would be printed there goes to stderr, as do the log lines, each under the front
 * end's name. It serves until stdin ends, the protocol closes or a stop signal comes; then the
 * front end's owner of sessions is disposed (stopping its turns and closing its sessions while
 * the connection can still carry their last answers) and the connection is closed.
 */
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { ndJsonStream } from "./_ndjson.ts";

/** One JSON-RPC message (request, response or notification) as read or written. */
export type JsonRpcMessage = AnyMessage;

/** The messages of the connection: read from stdin, written to stdout. */
export interface StdioMessages {
  readable: ReadableStream<JsonRpcMessage>;
  writable: WritableStream<JsonRpcMessage>;
}

/** A front end's protocol connection as the runner drives it. */
export interface StdioPeer {
  /** Settles when the protocol side closed the connection. */
  closed: Promise<unknown>;
  /** Closes the connection (after the owner was disposed). */
  close(): void | Promise<void>;
}

/** How a front end serves on stdio. */
export interface StdioServe<T extends AsyncDisposable> {
  /** Prefix of its log lines on stderr: `acp`, `mcp-server`. */
  name: string;
  /** Makes the owner of its sessions, given the log. */
  open(log: (line: string) => void): T;
  /** Connects its protocol to the messages of stdio. */
  connect(owner: T, messages: StdioMessages, log: (line: string) => void): Promise<StdioPeer>;
  /** Streams in place of stdin and stdout (tests); default the process's own. */
  stdio?: { stdin: ReadableStream<Uint8Array>; stdout: WritableStream<Uint8Array> };
  /** Ends serving as a stop signal does (tests); default SIGINT, SIGTERM and SIGHUP. */
  stop?: AbortSignal;
}

const STOP_SIGNALS: Deno.Signal[] = Deno.build.os === "windows"
  ? ["SIGINT"]
  : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Serves `serve`'s protocol on stdio (see the module comment); resolves with the exit code. */
export async function serveStdio<T extends AsyncDisposable>(serve: StdioServe<T>): Promise<number> {
  if (!serve.stdio) keepStdoutForProtocol();
  const log = (line: string) => console.error(`${serve.name}: ${line}`);
  const { stdin, stdout } = serve.stdio ??
    { stdin: Deno.stdin.readable, stdout: Deno.stdout.writable };
  const { promise: ended, resolve: end } = Promise.withResolvers<void>();
  const codec = ndJsonStream<JsonRpcMessage>(stdout, stdin);
  const messages = { readable: endingWith(codec.readable, end), writable: codec.writable };
  const owner = serve.open(log);
  let peer: StdioPeer | undefined;
  const signals = serve.stop ? [] : STOP_SIGNALS;
  for (const signal of signals) Deno.addSignalListener(signal, end);
  serve.stop?.addEventListener("abort", () => end(), { once: true });
  try {
    peer = await serve.connect(owner, messages, log);
    await Promise.race([ended, peer.closed.then(() => {}, () => {})]);
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, end);
    await owner[Symbol.asyncDispose]();
    await peer?.close();
  }
  return 0;
}

/**
 * `stream`, calling `onEnd` once its reader asked past the last message (or it failed): stdin
 * ended and every message before the end was taken.
 */
function endingWith<T>(stream: ReadableStream<T>, onEnd: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const read = await reader.read();
        if (!read.done) return controller.enqueue(read.value);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      onEnd();
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/**
 * Sends what anything would print to stdout to stderr instead: stdout carries the protocol, and
 * a stray line there would break the client's reading of it.
 */
function keepStdoutForProtocol(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}
