/**
 * Two eval jobs side by side: for every task × harness × model in either job, its pass rate,
 * interval, median steps and median tokens in each, and the change. A change is called
 * significant only when the two 95% Wilson intervals do not overlap; anything else is within the
 * noise, however large it looks.
 */
import { terminalText } from "../../../approval/visible.ts";
import { makeStyle, type Style } from "../../term/style.ts";
import {
  type Align,
  countCell,
  type Glyphs,
  glyphsFor,
  intervalCell,
  layoutTable,
  passCell,
  rowLabel,
  tokensCell,
} from "./_format.ts";
import { overlaps, summarize, type SummaryRow } from "./stats.ts";
import type { RunRecord } from "../types.ts";

/** One job's records and what to call it. */
export interface LabeledRecords {
  label: string;
  records: readonly RunRecord[];
}

/** How one task × harness × model changed from job A to job B. */
export type Change = "better" | "worse" | "within_noise" | "only_a" | "only_b";

/** One task × harness × model of the comparison. */
export interface ComparisonRow {
  task: string;
  harness: string;
  model: string;
  a: SummaryRow | null;
  b: SummaryRow | null;
  /** `better` and `worse` only when the intervals do not overlap. */
  change: Change;
}

/** How the comparison is drawn. */
export interface ComparisonOptions {
  /** ANSI styling and fancy glyphs; false gives plain ASCII. */
  color: boolean;
}

/** Every task × harness × model of either job, by task, harness and model name. */
export function compareJobs(
  a: readonly RunRecord[],
  b: readonly RunRecord[],
): ComparisonRow[] {
  const key = (r: { task: string; harness: string; model: string }) =>
    JSON.stringify([r.task, r.harness, r.model]);
  const rowsOf = (records: readonly RunRecord[]) =>
    new Map(summarize(records).flatMap((t) => t.rows.map((r) => [key(r.runs[0]), r])));
  const rowsA = rowsOf(a);
  const rowsB = rowsOf(b);
  const keys = [...new Set([...rowsA.keys(), ...rowsB.keys()])].sort();
  return keys.map((k) => {
    const [task, harness, model] = JSON.parse(k) as [string, string, string];
    const ra = rowsA.get(k) ?? null;
    const rb = rowsB.get(k) ?? null;
    return { task, harness, model, a: ra, b: rb, change: changeOf(ra, rb) };
  });
}

/** The comparison as text: a legend, a table per task, and a closing verdict. */
export function renderComparison(
  a: LabeledRecords,
  b: LabeledRecords,
  { color }: ComparisonOptions,
): string {
  const style = makeStyle(color);
  const g = glyphsFor(color);
  const rows = compareJobs(a.records, b.records);
  const legend = [
    `A: ${terminalText(a.label)} (${a.records.length} runs)`,
    `B: ${terminalText(b.label)} (${b.records.length} runs)`,
  ];
  if (rows.length === 0) return `${legend.join("\n")}\n\nNo runs to compare.\n`;
  const tasks = [...new Set(rows.map((r) => r.task))];
  const blocks = tasks.map((task) =>
    [style.bold(terminalText(task)), ...taskTable(rows.filter((r) => r.task === task), style, g)]
      .join("\n")
  );
  return [legend.join("\n"), ...blocks, verdict(rows)].join("\n\n") + "\n";
}

const SIDES = [
  "A pass",
  "A 95% CI",
  "A steps",
  "A tokens",
  "B pass",
  "B 95% CI",
  "B steps",
  "B tokens",
];
const ALIGN: Align[] = [
  "left",
  "left",
  "right",
  "right",
  "right",
  "left",
  "right",
  "right",
  "right",
  "left",
];

function taskTable(rows: readonly ComparisonRow[], style: Style, g: Glyphs): string[] {
  const cells = rows.map((r) => [
    rowLabel(r, g),
    ...sideCells(r.a, g),
    ...sideCells(r.b, g),
    changeText(r),
  ]);
  const header = [`harness ${g.times} model`, ...SIDES, "change"];
  const table = layoutTable(header, cells, { align: ALIGN, rule: g.rule });
  return [
    style.bold(table.header),
    style.dim(table.rule),
    ...table.rows.map((line, i) => paint(line, rows[i].change, style)),
  ];
}

function sideCells(row: SummaryRow | null, g: Glyphs): string[] {
  if (!row) return [g.none, g.none, g.none, g.none];
  return [
    passCell(row),
    intervalCell(row.interval, g),
    countCell(row.medianSteps),
    tokensCell(row.medianTokens),
  ];
}

/** `+67 pts, steps -3, tokens +1.2k: significant`, or where the row is missing. */
function changeText(r: ComparisonRow): string {
  if (r.change === "only_a") return "only in A";
  if (r.change === "only_b") return "only in B";
  const { a, b } = r as { a: SummaryRow; b: SummaryRow };
  const points = Math.round((b.passRate - a.passRate) * 100);
  const steps = b.medianSteps - a.medianSteps;
  const tokens = b.medianTokens - a.medianTokens;
  const parts = [
    `${signed(points, String(Math.abs(points)))} pts`,
    `steps ${signed(steps, countCell(Math.abs(steps)))}`,
    `tokens ${signed(tokens, tokensCell(Math.abs(tokens)))}`,
  ];
  const verdict = r.change === "within_noise" ? "within noise" : `${r.change} (significant)`;
  return `${parts.join(", ")}: ${verdict}`;
}

function paint(line: string, change: Change, style: Style): string {
  if (change === "better") return style.green(line);
  if (change === "worse") return style.red(line);
  return change === "within_noise" ? line : style.dim(line);
}

function verdict(rows: readonly ComparisonRow[]): string {
  const better = rows.filter((r) => r.change === "better").length;
  const worse = rows.filter((r) => r.change === "worse").length;
  if (better + worse === 0) {
    return "No change is larger than the noise: every pair of 95% intervals overlaps " +
      "(or a side has under 3 runs).";
  }
  return `B is significantly better in ${better} and worse in ${worse} of ${rows.length} rows ` +
    "(the 95% intervals do not overlap).";
}

function changeOf(a: SummaryRow | null, b: SummaryRow | null): Change {
  if (!b) return "only_a";
  if (!a) return "only_b";
  if (!a.interval || !b.interval || overlaps(a.interval, b.interval)) return "within_noise";
  return b.passRate > a.passRate ? "better" : "worse";
}

function signed(n: number, magnitude: string): string {
  if (n === 0) return "0";
  return `${n > 0 ? "+" : "-"}${magnitude}`;
}
