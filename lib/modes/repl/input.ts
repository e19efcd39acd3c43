/**
 * Where the REPL's messages come from: a terminal with line editing (node:readline over raw
 * keys we route ourselves, so that keys typed during a turn wait for the next prompt), or plain
 * lines (a pipe, or a terminal that must not receive escape sequences).
 */
import process from "node:process";
import { createInterface, type Interface, type ReadLineOptions } from "node:readline";
import { PassThrough } from "node:stream";
import { LoneEscape } from "./_lone_escape.ts";
import { continued } from "./continued_lines.ts";
import type { BusyKeys } from "./steering.ts";

/** What the REPL reads from. */
export interface ReplInput {
  /**
   * The next message, continued lines joined; null at end of input or when the user leaves, and
   * once `signal` fires (a wake-up is due): what was typed then comes back at the next prompt.
   */
  next(prompt: string, signal?: AbortSignal): Promise<string | null>;
  /** A turn runs: Ctrl-C or Esc calls `onInterrupt`; `keys` takes what is typed (steering.ts). */
  busy(onInterrupt: () => void, keys: BusyKeys): void;
  /**
   * One answer to an approval question: a letter, maybe followed by a note. Null on Ctrl-C, at
   * end of input, or once `signal` fires (the question was withdrawn): reading stops then.
   */
  answer(prompt: string, signal?: AbortSignal): Promise<string | null>;
  /** One plain line typed after `prompt` (a question's answer); null as for `answer()`. */
  line(prompt: string, signal?: AbortSignal): Promise<string | null>;
  /** Offers earlier messages (newest first) to line editing. */
  addHistory?(entries: string[]): void;
  /**
   * Runs `print` so that what it writes lands above the prompt: while a prompt is shown (an MCP
   * server's warning arrives between turns), the prompt line is cleared first and drawn again
   * after, with what was typed so far.
   */
  printAbove?(print: () => void): void;
  /** Hands the terminal to another program (the pager) while `run` runs. */
  suspend<T>(run: () => Promise<T>): Promise<T>;
  /** Sees raw input first, to take the terminal's reports (focus) out; ended at `close()`. */
  reports?: { strip(raw: string): string; end(): void };
  close(): void;
}

/** Stands for a newline inside a bracketed paste, so the paste stays one message. */
const PASTED_NEWLINE = "\u2424";
// deno-lint-ignore no-control-regex -- the paste markers start with ESC
const PASTE = /(\x1b\[20[01]~)/;

/**
 * Lines from stdin; a prompt is shown only when `showPrompt`. Stdin is read only while a line is
 * awaited, so that a program run in between (`/arena`'s picker) reads its answers itself.
 */
export function plainInput(opts: { write(text: string): void; showPrompt: boolean }): ReplInput {
  const decoder = new TextDecoder();
  let buffered = "";
  let ended = false;
  let reading: Promise<void> | undefined;
  const more = () =>
    reading ??= (async () => {
      const chunk = new Uint8Array(4096);
      const n = await Deno.stdin.read(chunk).catch(() => null);
      if (n === null) ended = true;
      else buffered += decoder.decode(chunk.subarray(0, n), { stream: true });
    })().finally(() => reading = undefined);
  const read = async (prompt: string, signal?: AbortSignal): Promise<string | null> => {
    if (signal?.aborted) return null;
    if (opts.showPrompt) opts.write(prompt);
    // A line that comes after the signal fired waits for the next read.
    const withdrawn = new Promise<void>((resolve) =>
      signal?.addEventListener("abort", () => resolve(), { once: true })
    );
    for (;;) {
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        return line.replace(/\r$/, "");
      }
      if (ended) {
        const rest = buffered;
        buffered = "";
        return rest || null;
      }
      await Promise.race([more(), withdrawn]);
      if (signal?.aborted) return null;
    }
  };
  return {
    next: (prompt, signal) => continued((p) => read(p, signal), prompt),
    busy() {},
    answer: read,
    line: read,
    suspend: (run) => run(),
    close() {},
  };
}

type Mode = "idle" | "prompt" | "busy" | "answer" | "suspended";

/** Options of `terminalInput()`; `completer` completes at Tab (`@` paths, mention_complete.ts). */
export interface TerminalInputOptions extends Pick<ReadLineOptions, "completer"> {
  write(text: string): void;
  /** Earlier messages, newest first. */
  history: string[];
  /** Said after the first Ctrl-C at an empty prompt. */
  exitHint: string;
}

/** Tab after `@` completes a path from `cwd` (mention_complete.ts, loaded at the first Tab). */
export function mentionCompleter(cwd: string): ReadLineOptions["completer"] {
  return (line: string, done: (error: null, result: [string[], string]) => void) =>
    void import("./mention_complete.ts").then((m) => m.completeMention(line, cwd))
      .then((result) => done(null, result), () => done(null, [[], line]));
}

/** Line editing on a terminal in raw mode. */
export function terminalInput(opts: TerminalInputOptions): ReplInput {
  return new TerminalInput(opts);
}

class TerminalInput implements ReplInput {
  #opts: TerminalInputOptions;
  #feed = new PassThrough();
  #rl: Interface;
  #mode: Mode = "idle";
  #typeAhead: string[] = [];
  #pasting = false;
  #swallowEnter = false;
  #ctrlC = 0;
  #closed = false;
  #onLine?: (line: string | null) => void;
  #onInterrupt?: () => void;
  #busyKeys?: BusyKeys;
  #onKeys?: (keys: string) => void;
  reports?: ReplInput["reports"];
  #onData = (chunk: string) => this.#route(chunk);
  #escapes = new LoneEscape({ keys: (text) => this.#keys(text), escape: () => this.#escape() });

  constructor(opts: TerminalInputOptions) {
    this.#opts = opts;
    this.#rl = createInterface({
      input: this.#feed,
      output: process.stdout,
      terminal: true,
      history: opts.history,
      historySize: 1000,
      removeHistoryDuplicates: true,
      completer: opts.completer,
    });
    this.#rl.on("line", (line) => this.#resolveLine(line));
    this.#rl.on("close", () => this.#resolveLine(null));
    this.#rl.on("SIGINT", () => this.#promptInterrupt());
    process.stdin.setRawMode(true);
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", this.#onData);
    opts.write("\x1b[?2004h");
  }

  next(prompt: string, signal?: AbortSignal): Promise<string | null> {
    return continued((p) => this.#readLine(p, signal), prompt).then((text) =>
      text === null ? null : text.replaceAll(PASTED_NEWLINE, "\n")
    );
  }

  addHistory(entries: string[]): void {
    const rl = this.#rl as unknown as { history: string[] };
    rl.history.push(...entries.filter((e) => !rl.history.includes(e)).slice(0, 1000));
  }

  busy(onInterrupt: () => void, keys: BusyKeys): void {
    this.#mode = "busy";
    [this.#onInterrupt, this.#busyKeys] = [onInterrupt, keys];
  }

  answer(prompt: string, signal?: AbortSignal): Promise<string | null> {
    if (signal?.aborted) return Promise.resolve(null);
    const previous = this.#mode;
    this.#opts.write(prompt);
    let note: string | null = null;
    return new Promise((resolve) => {
      const finish = (value: string | null) => {
        signal?.removeEventListener("abort", withdraw);
        this.#onKeys = undefined;
        this.#mode = previous;
        resolve(value);
      };
      const withdraw = () => {
        this.#opts.write("\n");
        finish(null);
      };
      signal?.addEventListener("abort", withdraw, { once: true });
      this.#mode = "answer";
      this.#onKeys = (keys) => {
        for (const ch of keys) {
          if (ch === "\x03") {
            this.#opts.write("\n");
            finish(null);
            return this.#onInterrupt?.();
          }
          if (note === null) {
            const key = ch.toLowerCase();
            if (key === "y" || key === "a") {
              this.#opts.write(`${ch}\n`);
              this.#swallowEnter = true;
              return finish(key);
            }
            if (key === "n") {
              note = "";
              this.#opts.write(ch);
            }
            continue;
          }
          if (ch === "\r" || ch === "\n") {
            this.#opts.write("\n");
            return finish(`n ${note}`);
          }
          if (ch === "\x7f" || ch === "\b") {
            if (note.length) this.#opts.write("\b \b");
            note = note.slice(0, -1);
          } else if (ch >= " ") {
            note += ch;
            this.#opts.write(ch);
          }
        }
      };
    });
  }

  line(prompt: string, signal?: AbortSignal): Promise<string | null> {
    if (signal?.aborted) return Promise.resolve(null);
    const previous = this.#mode;
    this.#opts.write(prompt);
    let text = "";
    return new Promise((resolve) => {
      const finish = (value: string | null) => {
        signal?.removeEventListener("abort", withdraw);
        this.#onKeys = undefined;
        this.#mode = previous;
        this.#opts.write("\n");
        resolve(value);
      };
      const withdraw = () => finish(null);
      signal?.addEventListener("abort", withdraw, { once: true });
      this.#mode = "answer";
      this.#onKeys = (keys) => {
        for (const ch of keys) {
          if (ch === "\x03") return finish(null);
          if (ch === "\r" || ch === "\n") return finish(text);
          if (ch === "\x7f" || ch === "\b") {
            if (text.length) this.#opts.write("\b \b");
            text = text.slice(0, -1);
          } else if (ch >= " ") {
            text += ch;
            this.#opts.write(ch);
          }
        }
      };
    });
  }

  printAbove(print: () => void): void {
    if (this.#mode !== "prompt") return print();
    this.#opts.write("\r\x1b[K");
    print();
    this.#rl.prompt(true);
  }

  async suspend<T>(run: () => Promise<T>): Promise<T> {
    const previous = this.#mode;
    this.#mode = "suspended";
    process.stdin.off("data", this.#onData);
    process.stdin.pause();
    process.stdin.setRawMode(false);
    try {
      return await run();
    } finally {
      process.stdin.setRawMode(true);
      process.stdin.on("data", this.#onData);
      process.stdin.resume();
      this.#mode = previous;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#escapes.close();
    this.reports?.end();
    this.#opts.write("\x1b[?2004l");
    process.stdin.off("data", this.#onData);
    process.stdin.setRawMode(false);
    process.stdin.pause();
    this.#rl.close();
  }

  #readLine(prompt: string, signal?: AbortSignal): Promise<string | null> {
    if (this.#closed || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#onLine = resolve;
      signal?.addEventListener("abort", () => this.#withdrawLine(resolve), { once: true });
      this.#mode = "prompt";
      this.#rl.setPrompt(prompt);
      this.#rl.prompt(true);
      const ahead = (this.#busyKeys?.take() ?? "") + this.#typeAhead.join("");
      this.#typeAhead = [];
      if (ahead) this.#feed.write(ahead);
    });
  }

  /** Gives up the prompt (a wake-up is due): what was typed waits for the next prompt. */
  #withdrawLine(resolve: (line: string | null) => void): void {
    if (this.#onLine !== resolve) return;
    const rl = this.#rl as unknown as { line: string; cursor: number };
    if (rl.line) this.#typeAhead.unshift(rl.line);
    rl.line = "";
    rl.cursor = 0;
    this.#opts.write("\r\x1b[K");
    this.#onLine = undefined;
    this.#mode = "idle";
    resolve(null);
  }

  #resolveLine(line: string | null): void {
    const resolve = this.#onLine;
    if (!resolve) return;
    this.#onLine = undefined;
    this.#mode = "idle";
    if (line !== null) this.#ctrlC = 0;
    resolve(line);
  }

  /** Ctrl-C at the prompt clears the line; twice on an empty line leaves. */
  #promptInterrupt(): void {
    if (this.#rl.line !== "") {
      this.#ctrlC = 0;
      this.#rl.write(null, { ctrl: true, name: "e" });
      this.#rl.write(null, { ctrl: true, name: "u" });
      return;
    }
    this.#ctrlC++;
    if (this.#ctrlC >= 2) return this.#resolveLine(null);
    this.#opts.write(`\n${this.#opts.exitHint}\n`);
    this.#rl.prompt(true);
  }

  #route(raw: string): void {
    let chunk = this.#unpaste(this.reports?.strip(raw) ?? raw);
    if (this.#swallowEnter) {
      this.#swallowEnter = false;
      if (chunk.startsWith("\r")) chunk = chunk.slice(1);
    }
    if (chunk === "") return;
    // At the prompt, line editing reads escape sequences itself.
    if (this.#mode === "prompt" && !this.#escapes.holding) return this.#keys(chunk);
    this.#escapes.push(chunk);
  }

  #keys(chunk: string): void {
    switch (this.#mode) {
      case "prompt":
        this.#feed.write(chunk);
        return;
      case "answer":
        return this.#onKeys?.(chunk);
      case "busy":
        return this.#busyKeys?.keys(chunk, () => this.#onInterrupt?.());
      default:
        this.#typeAhead.push(chunk);
    }
  }

  /** The Esc key stops a turn and answers a question as Ctrl-C does; elsewhere it does nothing. */
  #escape(): void {
    if (this.#mode === "busy") this.#keys("\x03"); // as Ctrl-C: steering.ts hears it too
    else if (this.#mode === "answer") this.#onKeys?.("\x03");
  }

  /** Drops the paste markers and turns pasted newlines into a stand-in character. */
  #unpaste(chunk: string): string {
    if (!chunk.includes("\x1b[20") && !this.#pasting) return chunk;
    let out = "";
    for (const part of chunk.split(PASTE)) {
      if (part === "\x1b[200~") this.#pasting = true;
      else if (part === "\x1b[201~") this.#pasting = false;
      else out += this.#pasting ? part.replace(/\r\n|\r|\n/g, PASTED_NEWLINE) : part;
    }
    return out;
  }
}
