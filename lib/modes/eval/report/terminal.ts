/**
 * The report `interpreter eval` prints: per task a table of its harness × model rows (best
 * marked), a bar chart of their pass rates, and which differences are more than noise. Without
 * color it is plain ASCII with no escape sequences, for pipes, logs and `TERM=dumb`.
 */
import { terminalText } from "../../../approval/visible.ts";
import { makeStyle, type Style } from "../../term/style.ts";
import {
  type Align,
  costCell,
  countCell,
  type Glyphs,
  glyphsFor,
  intervalCell,
  layoutTable,
  passCell,
  percent,
  plural,
  rowLabel,
  secondsCell,
  tokensCell,
} from "./_format.ts";
import {
  differences,
  MIN_RUNS_FOR_INTERVAL,
  summarize,
  type SummaryRow,
  type TaskSummary,
} from "./stats.ts";
import type { RunRecord } from "../types.ts";

/** How the report is drawn. */
export interface TerminalReportOptions {
  /** ANSI styling and block characters; false gives plain ASCII (see `colorWanted()`). */
  color: boolean;
  /** Columns available, for the bar chart; 80 when not given. */
  width?: number;
}

/** The mark of rows tied for best, in place of the star. */
const TIE = "=";

/** The widest a bar gets, however wide the terminal. */
const MAX_BAR = 40;

const HEADER = [
  "",
  "harness",
  "model",
  "pass",
  "95% CI",
  "steps",
  "failed calls",
  "tokens",
  "cost",
  "time",
];
const ALIGN: Align[] = [
  "left",
  "left",
  "left",
  "left",
  "right",
  "right",
  "right",
  "right",
  "right",
  "right",
];

/** The whole report of `records`, one block per task, ending in a newline. */
export function renderReport(records: readonly RunRecord[], opts: TerminalReportOptions): string {
  const tasks = summarize(records);
  if (tasks.length === 0) return "No runs to report.\n";
  return tasks.map((t) => taskBlock(t, opts).join("\n")).join("\n\n") + "\n";
}

function taskBlock(summary: TaskSummary, opts: TerminalReportOptions): string[] {
  const style = makeStyle(opts.color);
  const g = glyphsFor(opts.color);
  const runs = summary.rows.reduce((n, r) => n + r.n, 0);
  const pairs = summary.rows.length;
  const heading = `${terminalText(summary.task)}: ${runs} run${runs === 1 ? "" : "s"}, ` +
    `${pairs} harness ${g.times} model pair${pairs === 1 ? "" : "s"}`;
  return [
    style.bold(heading),
    "",
    ...tableLines(summary.rows, style, g),
    ...tieNote(summary.rows, style, g),
    ...stopNotes(summary.rows, style, g),
    "",
    style.bold("Pass rate"),
    ...barLines(summary.rows, { style, g, width: opts.width ?? 80 }),
    ...verdictLines(summary.rows, g),
  ];
}

function tableLines(rows: readonly SummaryRow[], style: Style, g: Glyphs): string[] {
  const cells = rows.map((r) => [
    r.tie ? TIE : r.best ? g.star : "",
    terminalText(r.harness),
    terminalText(r.model),
    passCell(r),
    intervalCell(r.interval, g),
    countCell(r.medianSteps),
    percent(r.failedCallRate),
    tokensCell(r.medianTokens),
    costCell(r.meanCost, g),
    secondsCell(r.medianTimeSec),
  ]);
  const table = layoutTable(HEADER, cells, { align: ALIGN, rule: g.rule });
  return [
    style.bold(table.header),
    style.dim(table.rule),
    ...table.rows.map((line, i) => rows[i].best ? style.bold(line) : line),
  ];
}

/** Under the table, when rows tie for best: which, and that their order is not a ranking. */
function tieNote(rows: readonly SummaryRow[], style: Style, g: Glyphs): string[] {
  const tied = rows.filter((r) => r.tie);
  if (tied.length === 0) return [];
  return [
    "",
    style.dim(
      `${TIE} tie for best at ${percent(tied[0].passRate)}: ` +
        `${tied.map((r) => rowLabel(r, g)).join(", ")} (listed by steps, then tokens)`,
    ),
  ];
}

/** A note under the table for each row whose runs were stopped rather than finished. */
function stopNotes(rows: readonly SummaryRow[], style: Style, g: Glyphs): string[] {
  const notes = rows.flatMap((r) => {
    const parts = [
      ...(r.loopGuardStops > 0 ? [plural(r.loopGuardStops, "loop-guard stop")] : []),
      ...(r.stepLimitStops > 0 ? [plural(r.stepLimitStops, "step-limit stop")] : []),
    ];
    return parts.length > 0 ? [style.dim(`${rowLabel(r, g)}: ${parts.join(", ")}`)] : [];
  });
  return notes.length > 0 ? ["", ...notes] : [];
}

function barLines(
  rows: readonly SummaryRow[],
  { style, g, width }: { style: Style; g: Glyphs; width: number },
): string[] {
  const labels = rows.map((r) => rowLabel(r, g));
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const barWidth = Math.max(10, Math.min(MAX_BAR, width - labelWidth - 9));
  return rows.map((r, i) => {
    const filled = Math.round(r.passRate * barWidth);
    const full = filled > 0 ? style.green(g.full.repeat(filled)) : "";
    const empty = filled < barWidth ? style.dim(g.empty.repeat(barWidth - filled)) : "";
    const bar = full + empty;
    return `  ${labels[i].padEnd(labelWidth)}  ${bar} ${percent(r.passRate).padStart(4)}`;
  });
}

/** Which rows are better than which beyond the noise, or that none is (after a blank line). */
function verdictLines(rows: readonly SummaryRow[], g: Glyphs): string[] {
  const found = differences(rows);
  if (found.length > 0) {
    return [
      "",
      ...found.map((d) =>
        `${rowLabel(d.better, g)} is better than ${rowLabel(d.worse, g)} (intervals do not overlap)`
      ),
    ];
  }
  if (rows.length < 2) return [];
  if (rows.every((r) => r.interval === null)) {
    return [
      "",
      `No row has the ${MIN_RUNS_FOR_INTERVAL} runs an interval needs, so no difference can be ` +
      `told from noise: run --repeat ${MIN_RUNS_FOR_INTERVAL} or more.`,
    ];
  }
  const few = rows.some((r) => r.interval === null);
  return [
    "",
    "No difference is larger than the noise: the 95% intervals overlap" +
    (few ? ` (rows under ${MIN_RUNS_FOR_INTERVAL} runs have none).` : "."),
  ];
}
