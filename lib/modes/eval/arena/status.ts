/**
 * What the arena shows on stderr while its contestants run: one line per contestant with its
 * phase (copying, running with its counts so far, checking, the check's verdict, an error).
 * On a terminal the block is redrawn in place, its clock ticking; elsewhere (a pipe, a log) a
 * line is printed only when a contestant's phase changes.
 */
import { terminalText } from "../../../approval/visible.ts";
import { makeStyle, type Style } from "../../term/style.ts";
import { glyphsFor, plural } from "../report/_format.ts";
import type { ProgressSink } from "../progress.ts";
import type { RunRecord } from "../types.ts";
import type { Contestant } from "./plan.ts";

/** Where a contestant is. */
export type ContestantPhase =
  | { kind: "waiting" }
  | { kind: "copying" }
  | { kind: "running"; toolCalls: number; requests: number }
  | { kind: "checking" }
  | { kind: "done"; record: RunRecord }
  | { kind: "error"; message: string };

/** How the status lines are drawn. */
export interface ArenaStatusOptions {
  color: boolean;
  /** Columns to cut lines to; on a terminal sink the console's width when not given. */
  width?: number;
}

/** Columns kept for the phase when names are cut: `running 12:34 · 56 requests · 78 tool calls`. */
const PHASE_ROOM = 44;

/** The fewest columns a name is cut to, however narrow the terminal. */
const MIN_NAME = 12;

/** The live status block of an arena's contestants. */
export class ArenaStatus {
  #sink: ProgressSink;
  #contestants: Contestant[];
  #opts: ArenaStatusOptions;
  #phases = new Map<string, ContestantPhase>();
  /** When each contestant's current phase began (its running clock). */
  #since = new Map<string, number>();
  /** Lines of the block on screen, to move back over on a redraw. */
  #drawn = 0;
  #timer?: ReturnType<typeof setInterval>;

  constructor(sink: ProgressSink, contestants: Contestant[], opts: ArenaStatusOptions) {
    this.#sink = sink;
    this.#contestants = contestants;
    this.#opts = opts;
    const now = Date.now();
    for (const c of contestants) {
      this.#phases.set(c.label, { kind: "waiting" });
      this.#since.set(c.label, now);
    }
    if (sink.terminal) {
      this.#timer = setInterval(() => this.#redraw(), 1000);
      Deno.unrefTimer(this.#timer);
      this.#redraw();
    }
  }

  /** Records a contestant's phase; a new phase kind restarts its clock. */
  update(label: string, phase: ContestantPhase): void {
    const before = this.#phases.get(label);
    if (!before || samePhase(before, phase)) return;
    this.#phases.set(label, phase);
    const changed = before.kind !== phase.kind;
    if (changed) this.#since.set(label, Date.now());
    if (this.#sink.terminal) this.#redraw();
    else if (changed) this.#sink.write(`${this.#line(this.#index(label))}\n`);
  }

  /** Prints a line (a warning) above the block, which is drawn again below it. */
  note(text: string): void {
    if (!this.#sink.terminal) return this.#sink.write(`${text}\n`);
    const up = this.#drawn > 0 ? `\x1b[${this.#drawn}A` : "";
    this.#sink.write(`${up}\r\x1b[J${text}\n`);
    this.#drawn = 0;
    this.#redraw();
  }

  /** Ends the clock; on a terminal the block is drawn a last time and left on screen. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#redraw();
  }

  /** The lines as they are now, without styling (what the block shows). */
  lines(now = Date.now()): string[] {
    return this.#contestants.map((_, i) => this.#plainLine(i, now));
  }

  #index(label: string): number {
    return this.#contestants.findIndex((c) => c.label === label);
  }

  #redraw(): void {
    const up = this.#drawn > 0 ? `\x1b[${this.#drawn}A` : "";
    const block = this.#contestants.map((_, i) => `\r\x1b[2K${this.#line(i)}\n`).join("");
    this.#drawn = this.#contestants.length;
    this.#sink.write(up + block);
  }

  #line(index: number): string {
    const style = makeStyle(this.#opts.color);
    const width = this.#width();
    const text = cut(this.#plainLine(index, Date.now(), width), width);
    const phase = this.#phases.get(this.#contestants[index].label)!;
    return paint(phase, text, style);
  }

  #plainLine(index: number, now: number, width = this.#width()): string {
    const labelWidth = Math.max(...this.#contestants.map((c) => c.label.length));
    const names = this.#names(width === undefined ? undefined : width - labelWidth - 5);
    const nameWidth = Math.max(...names.map((n) => [...n].length));
    const c = this.#contestants[index];
    const seconds = (now - this.#since.get(c.label)!) / 1000;
    const phase = phaseText(this.#phases.get(c.label)!, { seconds, color: this.#opts.color });
    const name = names[index] + " ".repeat(nameWidth - [...names[index]].length);
    return `${terminalText(c.label).padEnd(labelWidth)}  ${name}   ${phase}`;
  }

  /** `harness × model` of each contestant, cut to leave the phase room in `columns`. */
  #names(columns: number | undefined): string[] {
    const g = glyphsFor(this.#opts.color);
    const names = this.#contestants.map((c) =>
      `${terminalText(c.harness)} ${g.times} ${terminalText(c.model)}`
    );
    if (columns === undefined) return names;
    const room = Math.max(MIN_NAME, columns - PHASE_ROOM);
    return names.map((n) => cut(n, room + 1));
  }

  #width(): number | undefined {
    if (this.#opts.width !== undefined) return this.#opts.width;
    if (!this.#sink.terminal) return undefined;
    try {
      return Deno.consoleSize().columns;
    } catch {
      return undefined;
    }
  }
}

/** Whether `a` and `b` show the same (a running count that did not move needs no redraw). */
function samePhase(a: ContestantPhase, b: ContestantPhase): boolean {
  if (a.kind === "running" && b.kind === "running") {
    return a.requests === b.requests && a.toolCalls === b.toolCalls;
  }
  return a.kind === b.kind &&
    (a.kind === "waiting" || a.kind === "copying" || a.kind === "checking");
}

/**
 * `running 0:12 · 3 requests · 5 tool calls`, `✓ passed 0:41`, `error: …`; a finished run whose
 * reward is unknown (no check ran: the arena had no --check) is `done`.
 */
export function phaseText(
  phase: ContestantPhase,
  { seconds, color }: { seconds: number; color: boolean },
): string {
  switch (phase.kind) {
    case "waiting":
    case "copying":
    case "checking":
      return phase.kind;
    case "running":
      return `running ${clock(seconds)} · ${plural(phase.requests, "request")} · ` +
        plural(phase.toolCalls, "tool call");
    case "error":
      return `error: ${oneLine(phase.message)}`;
    case "done":
      return doneText(phase.record, color);
  }
}

function doneText(r: RunRecord, color: boolean): string {
  const time = clock(r.time_sec.agent + r.time_sec.check);
  const why = r.status === "completed" ? "" : ` (${r.status})`;
  if (r.reward === null) return `done ${time}${why}`;
  if (r.passed) return `${color ? "✓ " : ""}passed ${time}${why}`;
  return `${color ? "✗ " : ""}failed ${time}${why}`;
}

function paint(phase: ContestantPhase, text: string, style: Style): string {
  if (phase.kind === "error") return style.red(text);
  if (phase.kind === "waiting") return style.dim(text);
  if (phase.kind !== "done" || phase.record.reward === null) return text;
  return phase.record.passed ? style.green(text) : style.red(text);
}

/** `text` cut to `width` columns (one short, so the terminal never wraps it), with `…`. */
function cut(text: string, width: number | undefined): string {
  const chars = [...text];
  if (width === undefined || chars.length < width) return text;
  return chars.slice(0, Math.max(1, width - 2)).join("") + "…";
}

/** A message's first line, made safe for the terminal. */
function oneLine(message: string): string {
  return terminalText(message.trim().split("\n")[0] ?? "");
}

/** `0:12`, `12:05`, `1:02:03`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}
