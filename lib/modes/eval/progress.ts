/**
 * What eval shows while it runs, on stderr: one line per finished run, and on a terminal a status
 * line below them (done/total, passes so far, elapsed and estimated remaining time).
 */
import { terminalText } from "../../approval/visible.ts";
import { failedCallsOf } from "./report/stats.ts";
import type { RunRecord } from "./types.ts";

/** Where the progress goes. */
export interface ProgressSink {
  write(text: string): void;
  /** A terminal: the status line is drawn and redrawn. */
  terminal: boolean;
}

/** The progress of a job of `total` runs, `done` of which had finished before (a resume). */
export class EvalProgress {
  #sink: ProgressSink;
  #total: number;
  #done: number;
  #passed: number;
  #started = Date.now();
  #finishedHere = 0;
  #timer?: ReturnType<typeof setInterval>;

  constructor(sink: ProgressSink, total: number, before: RunRecord[]) {
    this.#sink = sink;
    this.#total = total;
    this.#done = before.length;
    this.#passed = before.filter((r) => r.passed).length;
    if (sink.terminal) {
      this.#timer = setInterval(() => this.#drawStatus(), 1000);
      Deno.unrefTimer(this.#timer);
      this.#drawStatus();
    }
  }

  /** Prints the line of a finished run and redraws the status line. */
  finished(record: RunRecord): void {
    this.#done++;
    this.#finishedHere++;
    if (record.passed) this.#passed++;
    this.#clearStatus();
    this.#sink.write(`${runLine(record, this.#done, this.#total)}\n`);
    this.#drawStatus();
  }

  /** Prints a line (a warning) above the status line. */
  note(text: string): void {
    this.#clearStatus();
    this.#sink.write(`${text}\n`);
    this.#drawStatus();
  }

  /** Removes the status line for good. */
  stop(): void {
    clearInterval(this.#timer);
    this.#clearStatus();
  }

  /** `3/27 done · 2 passed · 0:12 elapsed · ~1:40 left`. */
  statusText(now = Date.now()): string {
    const elapsed = (now - this.#started) / 1000;
    const parts = [
      `${this.#done}/${this.#total} done`,
      `${this.#passed} passed`,
      `${clock(elapsed)} elapsed`,
    ];
    const left = this.#total - this.#done;
    if (this.#finishedHere > 0 && left > 0) {
      parts.push(`~${clock((elapsed / this.#finishedHere) * left)} left`);
    }
    return parts.join(" · ");
  }

  #drawStatus(): void {
    if (this.#sink.terminal) this.#sink.write(`\r\x1b[2K${this.statusText()}`);
  }

  #clearStatus(): void {
    if (this.#sink.terminal) this.#sink.write("\r\x1b[2K");
  }
}

/** `[3/27] pass  native × gpt-5 #1 (fix-bug)  12 steps, 1 failed call, 4.2s`. */
export function runLine(r: RunRecord, done: number, total: number): string {
  const failed = failedCallsOf(r);
  const verdict = r.passed ? "pass" : "FAIL";
  const why = r.status === "completed" ? "" : `  (${r.status}${r.error ? `: ${r.error}` : ""})`;
  return terminalText(
    `[${done}/${total}] ${verdict}  ${r.harness} × ${r.model} #${r.attempt} (${r.task})  ` +
      `${r.requests} step${r.requests === 1 ? "" : "s"}, ` +
      `${failed} failed call${failed === 1 ? "" : "s"}, ` +
      `${r.time_sec.total.toFixed(1)}s${why}`,
  );
}

function clock(seconds: number): string {
  const s = Math.round(seconds);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}
