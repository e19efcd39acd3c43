/**
 * One code-mode cell: a `sandbox/code_cell_main.ts` process, its output since the last yield, and the nested
 * tool calls it asks for. A call runs only while an `exec` or `wait` call is attached to the
 * cell (so it goes through that call's approvals); calls made while it is detached wait for the
 * next `wait`. The cell lives until its source settles, it is terminated, or its time runs out.
 */
import { type GroupSpawn, signalGroup, spawnInGroup } from "../process_group.ts";

type Json = Record<string, unknown>;

/** The longest message line a cell's process may write (its output items are capped apart). */
const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

/** What a cell runs and within which limits. */
export interface CellSpec {
  id: string;
  source: string;
  /** JavaScript name → nested tool name. */
  tools: Record<string, string>;
  descriptions: Record<string, string>;
  stored: Record<string, unknown>;
  /** The sandboxed process (the command sandbox's wrapping of the cell program). */
  spawn: GroupSpawn;
  /** The longest a cell may live, in ms. */
  maxLifetimeMs: number;
  /** Characters of output a cell keeps in all; the rest is dropped with a note. */
  maxOutputChars: number;
}

/** Runs a nested call for the attached tool call: its value, or the error text. */
export type NestedCall = (
  name: string,
  input: unknown,
) => Promise<{ value: unknown; isError: boolean }>;

/** What a cell has to report when a call attached to it returns. */
export interface CellReport {
  state: "running" | "done" | "terminated";
  /** Texts the source emitted since the last report. */
  items: string[];
  /** The source threw (or the process failed): its description. */
  error?: string;
  /** The values `store()` kept, once done. */
  stored?: Record<string, unknown>;
}

interface Call {
  id: number;
  name: string;
  input: unknown;
}

/** A running cell; see the module comment. */
export class Cell {
  readonly id: string;
  #child: Deno.ChildProcess;
  #items: string[] = [];
  #kept = 0;
  #dropped = false;
  #maxOutput: number;
  #yielded = false;
  #end?: { error?: string; stored?: Record<string, unknown>; terminated?: boolean };
  #queue: Call[] = [];
  #nested?: NestedCall;
  #wake: () => void = () => {};
  #stderr = "";
  #lifetime: ReturnType<typeof setTimeout>;

  constructor(spec: CellSpec) {
    this.id = spec.id;
    this.#maxOutput = spec.maxOutputChars;
    this.#child = spawnInGroup({ ...spec.spawn, stdin: "piped" });
    const writer = this.#child.stdin.getWriter();
    this.#send = (message) => writer.write(encode(message)).catch(() => {});
    const { source, tools, descriptions, stored } = spec;
    this.#send({ source, tools, descriptions, stored });
    this.#lifetime = setTimeout(() => this.#timeOut(spec.maxLifetimeMs), spec.maxLifetimeMs);
    const reading = Promise.all([this.#readMessages(), this.#readStderr()]);
    // A process that ends without its `done` line crashed (or ran out of memory).
    Promise.all([this.#child.status, reading]).then(() =>
      this.#finish({ error: this.#crashText() })
    );
  }

  #send: (message: Json) => void;

  /** Whether the source has settled (or the cell was ended). */
  get done(): boolean {
    return this.#end !== undefined;
  }

  /**
   * Attaches a tool call for up to `ms`: runs the calls the source makes (and those it made
   * while detached) with `nested`, and returns once the source settles, yields, or `ms` pass.
   */
  async attach(ms: number, nested: NestedCall, signal: AbortSignal): Promise<CellReport> {
    this.#nested = nested;
    for (const call of this.#queue.splice(0)) this.#run(call);
    const deadline = Date.now() + ms;
    try {
      while (!this.#end && !this.#yielded && Date.now() < deadline && !signal.aborted) {
        await this.#changeOr(deadline - Date.now(), signal);
      }
    } finally {
      this.#nested = undefined;
    }
    this.#yielded = false;
    return this.#report();
  }

  /** Ends the cell's process; the report holds the output not yet reported. */
  async terminate(): Promise<CellReport> {
    if (!this.#end) this.#finish({ terminated: true });
    signalGroup(this.#child);
    await this.#child.status.catch(() => {});
    return this.#report();
  }

  #report(): CellReport {
    const items = this.#items.splice(0);
    const end = this.#end;
    if (!end) return { state: "running", items };
    if (end.terminated) return { state: "terminated", items };
    return { state: "done", items, ...(end.error ? { error: end.error } : {}), stored: end.stored };
  }

  #changeOr(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      const onAbort = () => done();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#wake = done;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve();
      }
    });
  }

  async #readMessages(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of this.#child.stdout) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf("\n")) >= 0) {
          this.#onMessage(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
        }
        // The source can write to its stdout itself: a line without end must not fill our memory.
        if (buffer.length > MAX_MESSAGE_CHARS) return this.#overlong();
      }
    } catch {
      // The process ended; its status settles the cell.
    }
  }

  #overlong(): void {
    this.#finish({
      error: `the cell wrote a line of over ${MAX_MESSAGE_CHARS} characters to its own stdout, ` +
        "which carries only the cell's messages; print with text() instead",
    });
    signalGroup(this.#child);
  }

  #onMessage(line: string): void {
    let message: Json;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.t === "text") this.#addText(String(message.text ?? ""));
    else if (message.t === "yield") this.#yielded = true;
    else if (message.t === "call") this.#onCall(message);
    else if (message.t === "done") {
      const error = typeof message.error === "string" ? message.error : undefined;
      this.#finish({ error, stored: (message.stored ?? {}) as Record<string, unknown> });
      signalGroup(this.#child);
    }
    this.#wake();
  }

  #onCall(message: Json): void {
    const call = { id: Number(message.id), name: String(message.name), input: message.input };
    if (this.#nested) this.#run(call);
    else this.#queue.push(call);
  }

  #run(call: Call): void {
    const nested = this.#nested!;
    nested(call.name, call.input ?? undefined).then(
      ({ value, isError }) =>
        this.#send(
          isError ? { id: call.id, ok: false, error: value } : { id: call.id, ok: true, value },
        ),
      (error) => this.#send({ id: call.id, ok: false, error: String(error?.message ?? error) }),
    );
  }

  #addText(text: string): void {
    if (this.#kept + text.length > this.#maxOutput) {
      if (!this.#dropped) this.#items.push(`[output over ${this.#maxOutput} characters dropped]`);
      this.#dropped = true;
      return;
    }
    this.#kept += text.length;
    this.#items.push(text);
  }

  #finish(end: { error?: string; stored?: Record<string, unknown>; terminated?: boolean }): void {
    if (this.#end) return;
    this.#end = end;
    clearTimeout(this.#lifetime);
    this.#wake();
  }

  #timeOut(ms: number): void {
    this.#finish({
      error: `the cell ran longer than its limit of ${Math.round(ms / 1000)} seconds`,
    });
    signalGroup(this.#child);
  }

  async #readStderr(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.#child.stderr) {
        if (this.#stderr.length < 4000) this.#stderr += decoder.decode(chunk, { stream: true });
      }
    } catch {
      // Ended with the process.
    }
  }

  #crashText(): string {
    const detail = this.#stderr.trim().slice(0, 2000);
    return `the cell's process ended before its source finished${detail ? `: ${detail}` : ""}`;
  }
}

function encode(message: Json): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message) + "\n");
}
