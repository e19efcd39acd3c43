/**
 * What the user types while a turn runs (issue 34 item 7). Enter sends the line into the running
 * turn: the session adds it to the history before the turn's next model request, and the
 * transcript says so where it lands. Tab queues it as the next prompt, run once the turn has
 * ended; a line sent with Enter that no request took (the turn ended first) is queued too.
 * A slash command sent with Enter is queued, not steered: it is for the REPL, not the model.
 * Text typed but not sent waits at the next prompt, as before.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Session } from "../../session/types.ts";

/** Where a line typed during a turn goes. */
export interface TypedDuringTurn {
  /** Enter: into the running turn. */
  steer(text: string): void;
  /** Tab: the next prompt, after the turn. */
  queue(text: string): void;
  /** Tab after `@`: completes the path being typed (mention_complete.ts). */
  complete?(): void;
}

/** Stands for a newline inside a bracketed paste, so the paste stays one message (input.ts). */
const PASTED_NEWLINE = "\u2424";
// deno-lint-ignore no-control-regex -- escape sequences start with ESC
const SEQUENCE = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/g;

/** Keys typed while a turn runs, as input.ts hands them over. */
export interface BusyKeys {
  keys(chunk: string, interrupt: () => void): void;
  /** What was typed and not sent, for the next prompt; the line starts empty again. */
  take(): string;
}

/** The line being typed while a turn runs, edited as it comes. */
export class BusyLine {
  #text = "";

  /** What is typed so far. */
  get text(): string {
    return this.#text;
  }

  /** Takes keys typed during a turn; Ctrl-C calls `interrupt`. Without `to` lines wait. */
  keys(chunk: string, to: TypedDuringTurn | undefined, interrupt: () => void): void {
    for (const ch of chunk.replace(SEQUENCE, "")) {
      if (ch === "\x03") interrupt();
      else if (ch === "\r" || ch === "\n") this.#send((text) => steerOrQueue(text, to), to);
      else if (ch === "\t") {
        if (/(^|\s)@\S*$/.test(this.#text)) to?.complete?.();
        else this.#send((text) => to?.queue(text), to);
      } else if (ch === "\x7f" || ch === "\b") this.#text = [...this.#text].slice(0, -1).join("");
      else if (ch === "\x15") this.#text = "";
      else if (ch >= " ") this.#text += ch;
    }
  }

  /** What was typed and not sent (for the next prompt); the line starts empty again. */
  take(): string {
    const text = this.#text;
    this.#text = "";
    return text;
  }

  /** Adds `text` at the end of the line (a completion). */
  append(text: string): void {
    this.#text += text;
  }

  /** Puts lines that were sent back in front of what is typed (the turn was stopped). */
  restore(texts: string[]): void {
    const back = texts.map((t) => t.replaceAll("\n", PASTED_NEWLINE));
    this.#text = [...back, this.#text].filter((t) => t !== "").join(" ");
  }

  #send(to: (text: string) => void, sink: TypedDuringTurn | undefined): void {
    if (!sink) return;
    const text = this.take().replaceAll(PASTED_NEWLINE, "\n");
    if (text.trim() !== "") to(text);
  }
}

/** Where the REPL's transcript is written; `typing` is drawn under its spinner. */
interface ReplView {
  transcript: { lines(lines: string[]): void; typing?: string };
  style: { dim(text: string): string };
  /** Where `@` paths are completed from. */
  cwd: string;
}

/**
 * The REPL's side: lines sent into a turn, and the prompts queued after it. What is typed shows
 * under the spinner; a line sent waits there until a request takes it. Stopping the turn (Ctrl-C,
 * Esc) runs nothing more: what was queued or not yet taken comes back at the prompt.
 */
export class Steering implements TypedDuringTurn, BusyKeys {
  #queued: string[] = [];
  #line = new BusyLine();
  #waiting: string[] = [];
  #stopped = false;
  #session: () => Session | undefined;
  #repl: () => ReplView;

  constructor(session: () => Session | undefined, repl: () => ReplView) {
    this.#session = session;
    this.#repl = repl;
  }

  keys(chunk: string, interrupt: () => void): void {
    this.#line.keys(chunk, this, () => {
      this.#stopped = true;
      this.#line.restore(this.#queued.splice(0));
      interrupt();
    });
    this.#show();
  }

  take(): string {
    const text = this.#line.take();
    this.#show();
    return text;
  }

  steer(text: string): void {
    this.#waiting.push(text);
    const sent = this.#session()?.steer?.(text) ?? Promise.resolve(false);
    const settle = (landed: boolean) => {
      this.#waiting.splice(this.#waiting.indexOf(text), 1);
      if (landed) {
        const { transcript, style } = this.#repl();
        transcript.lines([style.dim(`↳ steered: ${terminalText(text).split("\n").join("\n  ")}`)]);
      } else if (this.#stopped) this.#line.restore([text]);
      else this.queue(text);
      this.#show();
    };
    void sent.then(settle, () => settle(false));
  }

  queue(text: string): void {
    this.#queued.push(text);
  }

  /** Extends the `@path` being typed as far as the names it can be agree (as at the prompt). */
  complete(): void {
    const before = this.#line.text;
    void import("./mention_complete.ts")
      .then((m) => m.completeMention(before, this.#repl().cwd))
      .then(([found, word]) => {
        if (this.#line.text !== before || found.length === 0) return;
        const common = found.reduce((a, b) => {
          let n = 0;
          while (n < a.length && a[n] === b[n]) n++;
          return a.slice(0, n);
        });
        this.#line.append(common.slice(word.length));
        this.#show();
      }, () => {});
  }

  /** The next queued prompt, oldest first; a turn starts after it. */
  next(): string | undefined {
    this.#stopped = false;
    return this.#queued.shift();
  }

  /** The line under the spinner: what is typed, else the last line waiting for a request. */
  #show(): void {
    const typed = this.#line.text.replaceAll(PASTED_NEWLINE, " ");
    const waiting = this.#waiting.at(-1)?.replaceAll("\n", " ");
    this.#repl().transcript.typing = typed
      ? `› ${typed}  (Enter: send into this turn · Tab: run after it)`
      : waiting
      ? `↳ at the next request: ${waiting}`
      : undefined;
  }
}

/** Enter: a slash command waits for the prompt (the model never sees it); other text steers. */
function steerOrQueue(text: string, to: TypedDuringTurn | undefined): void {
  if (/^\s*\/\S/.test(text)) to?.queue(text);
  else to?.steer(text);
}
