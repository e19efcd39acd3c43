/**
 * The SDK `Transport` of a stdio MCP server, with the server in its own process group. The SDK's
 * own stdio transport stops only the process it started, so the helpers a server starts (`npx`
 * starts `node`, a shell script starts its tools) outlived a server that hung at start-up. Here
 * the server leads a new session (`setsid`), and stopping it ends the whole group: stdin is
 * closed first, the group gets SIGTERM when the server has not exited after a grace period and
 * SIGKILL after another, and once the server is gone whatever is left of its group is killed. A
 * server that exits on its own takes its group along the same way.
 *
 * Messages are JSON-RPC, one per line, as the SDK's transport reads and writes them (its
 * `serializeMessage` and `deserializeMessage`), with the same 10 MiB bound on one line.
 */
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import {
  deserializeMessage,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { signalGroup, spawnInGroup } from "../tools/process_group.ts";
import type { StdioLaunch } from "./launch.ts";

/** How long a server has to exit after its stdin closes, then after SIGTERM. */
const GRACE_MS = 2000;

/** A stdio server's process and its messages (see the module comment). */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #target: StdioLaunch;
  readonly #onStderr: (chunk: Uint8Array) => void;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #exited?: Promise<void>;
  #ended?: Promise<void>;
  #closed = false;

  constructor(target: StdioLaunch, onStderr: (chunk: Uint8Array) => void) {
    this.#target = target;
    this.#onStderr = onStderr;
  }

  /** The server's process id (its process group's too), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the server; a command that cannot run rejects (`code` "ENOENT" when missing). */
  start(): Promise<void> {
    if (this.#child) throw new Error("The MCP server's process was already started");
    const { command, args, env, cwd } = this.#target;
    const child = spawnInGroup({
      cmd: command,
      args,
      cwd,
      env: { ...getDefaultEnvironment(), ...env },
      stdin: "piped",
    });
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    const stdout = child.stdout.getReader();
    const stderr = child.stderr.getReader();
    this.#exited = child.status.then(() => this.#killGroup("SIGKILL"));
    const reading = Promise.all([this.#readMessages(stdout), this.#readStderr(stderr)]);
    this.#ended = this.#exited.then(async () => {
      // A helper that left the group may hold the pipes open: stop reading after a while.
      if (!await within(reading, GRACE_MS)) {
        await Promise.all([stdout.cancel(), stderr.cancel()]).catch(() => {});
        await reading;
      }
      this.#closed = true;
      this.onclose?.();
    });
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("Not connected");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Stops the server and everything in its process group; resolves once the server is gone. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || !this.#exited || !this.#ended) return;
    // Not awaited: a server that reads nothing never takes what is still being written.
    this.#writer?.close().catch(() => {});
    if (!await within(this.#exited, GRACE_MS)) {
      this.#killGroup("SIGTERM");
      if (!await within(this.#exited, GRACE_MS)) this.#killGroup("SIGKILL");
    }
    await this.#ended;
  }

  /** Signals the server's process group (on Windows, the server alone). */
  #killGroup(signal: Deno.Signal): void {
    if (this.#child) signalGroup(this.#child, signal);
  }

  async #readMessages(stdout: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const lines = new LineReader(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    try {
      for (let read = await stdout.read(); !read.done; read = await stdout.read()) {
        for (const line of lines.push(read.value)) this.#deliver(line);
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      this.#killGroup("SIGKILL");
      await stdout.cancel().catch(() => {});
    }
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  async #readStderr(stderr: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (let read = await stderr.read(); !read.done; read = await stderr.read()) {
        this.#onStderr(read.value);
      }
    } catch {
      // A broken stderr loses log lines, never the server.
    }
  }
}

/**
 * Splits a byte stream into lines of UTF-8 text (a `\r` before the `\n` dropped). A line longer
 * than `maxBytes` throws: the server is broken or hostile.
 */
class LineReader {
  readonly #maxBytes: number;
  readonly #parts: Uint8Array[] = [];
  #size = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#keep(chunk.subarray(start, nl));
      lines.push(this.#take());
      start = nl + 1;
    }
    if (start < chunk.length) this.#keep(chunk.slice(start));
    return lines;
  }

  #keep(part: Uint8Array): void {
    this.#size += part.length;
    if (this.#size > this.#maxBytes) {
      throw new Error(`The MCP server sent a message longer than ${this.#maxBytes} bytes`);
    }
    this.#parts.push(part);
  }

  #take(): string {
    const bytes = new Uint8Array(this.#size);
    let at = 0;
    for (const part of this.#parts) {
      bytes.set(part, at);
      at += part.length;
    }
    this.#parts.length = 0;
    this.#size = 0;
    return new TextDecoder().decode(bytes).replace(/\r$/, "");
  }
}

/** True when `promise` settles within `ms`; the timer is cleared either way. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
