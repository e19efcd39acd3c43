/**
 * The one throttle between a running tool's `ctx.progress` and the `tool_progress` events the
 * loop emits: a few events a second per call at most, each event's text and the call's total
 * capped, so a command that floods its output cannot flood the front ends.
 */
import type { ToolProgress } from "../tools/types.ts";

/** How much progress one call may report. */
export interface ProgressLimits {
  /** Least time between two events of one call. */
  intervalMs: number;
  /** Most characters in one event; older text is dropped first, with a note saying so. */
  eventChars: number;
  /** Most characters over all of a call's events; past it, one note and nothing more. */
  callChars: number;
}

/** At most four events a second, 4 KiB each, 1 MiB in all per call. */
const PROGRESS_LIMITS: ProgressLimits = {
  intervalMs: 250,
  eventChars: 4096,
  callChars: 1 << 20,
};

/** The timers the throttle uses; tests give it a clock they move themselves. */
export interface ProgressClock {
  now(): number;
  setTimer(fn: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimer(id: ReturnType<typeof setTimeout>): void;
}

const REAL_CLOCK: ProgressClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (id) => clearTimeout(id),
};

/** The note that ends a call's progress once it reached `callChars`. */
export const PROGRESS_CAPPED_NOTE =
  "[progress output stopped here; the tool's result will have the rest]";

/**
 * Collects one call's progress and passes it on throttled: the first chunk at once, later ones
 * at most once per `intervalMs`, one stream per event (the text that stream gathered meanwhile).
 * `close()` passes on what is left and ignores anything pushed afterwards.
 */
export class ProgressThrottle {
  readonly #emit: (chunk: ToolProgress) => void;
  readonly #limits: ProgressLimits;
  readonly #clock: ProgressClock;
  /** Text waiting per stream, in the order the streams first had some. */
  #pending = new Map<ToolProgress["stream"], string>();
  #skipped = new Map<ToolProgress["stream"], number>();
  #last = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sent = 0;
  #done = false;

  constructor(
    emit: (chunk: ToolProgress) => void,
    opts: { limits?: ProgressLimits; clock?: ProgressClock } = {},
  ) {
    this.#emit = emit;
    this.#limits = opts.limits ?? PROGRESS_LIMITS;
    this.#clock = opts.clock ?? REAL_CLOCK;
  }

  /** Takes one chunk of progress. */
  push(chunk: ToolProgress): void {
    if (this.#done || chunk.text === "") return;
    const text = (this.#pending.get(chunk.stream) ?? "") + chunk.text;
    const cut = this.#cutAt(text);
    if (cut > 0) this.#skipped.set(chunk.stream, (this.#skipped.get(chunk.stream) ?? 0) + cut);
    this.#pending.set(chunk.stream, text.slice(cut));
    this.#schedule();
  }

  /** Passes on everything still waiting, then ignores further chunks. */
  close(): void {
    if (this.#done) return;
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    this.#timer = undefined;
    while (this.#pending.size > 0 && !this.#done) this.#sendOne();
    this.#done = true;
  }

  /** Where the kept end of `text` starts: within `eventChars`, at a line start when it can. */
  #cutAt(text: string): number {
    const over = text.length - this.#limits.eventChars;
    if (over <= 0) return 0;
    const newline = text.indexOf("\n", over - 1);
    return newline >= 0 && newline < text.length - 1 ? newline + 1 : over;
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#pending.size === 0) return;
    const wait = this.#last + this.#limits.intervalMs - this.#clock.now();
    if (wait <= 0) {
      this.#sendOne();
      this.#schedule();
      return;
    }
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined;
      if (this.#done) return;
      this.#sendOne();
      this.#schedule();
    }, wait);
  }

  #sendOne(): void {
    const [stream, pending] = this.#pending.entries().next().value!;
    this.#pending.delete(stream);
    const skipped = this.#skipped.get(stream) ?? 0;
    this.#skipped.delete(stream);
    let text = skipped > 0 ? `[… ${skipped} characters not shown …]\n${pending}` : pending;
    this.#last = this.#clock.now();
    const room = this.#limits.callChars - this.#sent;
    if (text.length > room) {
      text = text.slice(0, room);
      this.#done = true;
      this.#pending.clear();
    }
    this.#sent += text.length;
    if (text) this.#emit({ stream, text });
    if (this.#done) this.#emit({ stream: "status", text: PROGRESS_CAPPED_NOTE });
  }
}
