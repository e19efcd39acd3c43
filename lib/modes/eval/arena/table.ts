/**
 * The arena's side-by-side table: one row per contestant with its check, its diff, what its run
 * cost and took, the picked one marked. Without color it is plain ASCII with no escape sequences.
 */
import { terminalText } from "../../../approval/visible.ts";
import { makeStyle } from "../../term/style.ts";
import {
  type Align,
  costCell,
  type Glyphs,
  glyphsFor,
  layoutTable,
  tokensCell,
} from "../report/_format.ts";
import type { RunRecord } from "../types.ts";
import { failedCallsOf } from "../report/stats.ts";
import type { Contestant } from "./plan.ts";
import { clock } from "./status.ts";

/** How the table is drawn. */
export interface ArenaTableOptions {
  /** ANSI styling and fancy glyphs; false gives plain ASCII. */
  color: boolean;
  /** The label of the contestant chosen, marked in the first column. */
  picked?: string;
}

/** The longest error text shown in the note column. */
const NOTE_MAX = 48;

const HEADER = [
  "",
  "",
  "harness",
  "model",
  "check",
  "files",
  "diff",
  "requests",
  "failed calls",
  "tokens",
  "cost",
  "time",
  "note",
];
const ALIGN: Align[] = [
  "left",
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
  "right",
  "left",
];

/** The table of every contestant's finished run, ending in a newline. */
export function renderArenaTable(
  rows: Array<{ contestant: Contestant; record: RunRecord }>,
  opts: ArenaTableOptions,
): string {
  if (rows.length === 0) return "No contestant finished.\n";
  const style = makeStyle(opts.color);
  const g = glyphsFor(opts.color);
  const cells = rows.map(({ contestant, record }) => [
    contestant.label === opts.picked ? (opts.color ? "→" : "*") : "",
    terminalText(contestant.label),
    terminalText(contestant.harness),
    terminalText(contestant.model),
    checkCell(record, g),
    record.diff ? String(record.diff.files) : g.none,
    diffCell(record.diff, opts.color, g),
    String(record.requests),
    String(failedCallsOf(record)),
    tokensCell(record.tokens.input + record.tokens.output),
    costCell(record.cost_usd, g),
    clock(record.time_sec.agent + record.time_sec.check),
    noteCell(record),
  ]);
  const table = layoutTable(HEADER, cells, { align: ALIGN, rule: g.rule });
  return [
    style.bold(table.header),
    style.dim(table.rule),
    ...table.rows.map((line, i) =>
      rows[i].contestant.label === opts.picked ? style.bold(line) : line
    ),
  ].join("\n") + "\n";
}

/** The check's verdict; the missing mark when its reward is unknown (no --check: none ran). */
function checkCell(record: RunRecord, g: Glyphs): string {
  if (record.reward === null) return g.none;
  return record.passed ? "pass" : "fail";
}

/** `+12 −3`; plain: `+12 -3`. */
function diffCell(diff: RunRecord["diff"], color: boolean, g: Glyphs): string {
  if (!diff) return g.none;
  return `+${diff.added} ${color ? "−" : "-"}${diff.deleted}`;
}

/** How the run ended when not completed, and why it or its check failed, briefly. */
function noteCell(record: RunRecord): string {
  const parts = [
    ...(record.status === "completed" ? [] : [record.status]),
    ...(record.error ? [brief(record.error)] : []),
  ];
  return parts.join(": ");
}

function brief(text: string): string {
  const line = terminalText(text.trim().split("\n")[0] ?? "");
  const chars = [...line];
  return chars.length <= NOTE_MAX ? line : `${chars.slice(0, NOTE_MAX - 3).join("")}...`;
}
