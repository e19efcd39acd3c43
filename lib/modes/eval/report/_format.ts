/**
 * The cells the terminal report and the comparison share: percentages, intervals, medians,
 * tokens, cost and time as short text, the glyphs for color and plain output (plain is ASCII
 * only), and a table laid out in aligned columns.
 */
import { terminalText } from "../../../approval/visible.ts";
import { formatCost, formatTokens } from "../../term/status_line.ts";
import type { Interval, SummaryRow } from "./stats.ts";

/** The characters a report draws with: fancy with color, ASCII without. */
export interface Glyphs {
  star: string;
  /** A missing value. */
  none: string;
  /** Between the ends of a range. */
  range: string;
  /** Between harness and model. */
  times: string;
  full: string;
  empty: string;
  rule: string;
}

/** The glyphs for a terminal with color, or plain ASCII. */
export function glyphsFor(color: boolean): Glyphs {
  return color
    ? { star: "★", none: "—", range: "–", times: "×", full: "█", empty: "░", rule: "─" }
    : { star: "*", none: "-", range: "-", times: "x", full: "#", empty: ".", rule: "-" };
}

/** `1 request`, `3 requests`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A rate as a whole percent: `67%`; a small non-zero rate is `<1%`. */
export function percent(rate: number): string {
  if (rate > 0 && rate < 0.005) return "<1%";
  return `${Math.round(rate * 100)}%`;
}

/** `3/3 100%`. */
export function passCell(row: Pick<SummaryRow, "passes" | "n" | "passRate">): string {
  return `${row.passes}/${row.n} ${percent(row.passRate)}`;
}

/** `44–100%`, or the missing mark when there is no interval. */
export function intervalCell(interval: Interval | null, g: Glyphs): string {
  if (!interval) return g.none;
  const low = Math.round(interval.low * 100);
  return `${low}${g.range}${Math.round(interval.high * 100)}%`;
}

/** A median count: whole, or with one decimal when it falls between two runs. */
export function countCell(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** A token count for a glance: `12.3k`. */
export function tokensCell(n: number): string {
  return formatTokens(Math.round(n));
}

/** `$0.0120`, or the missing mark when a price was unknown. */
export function costCell(usd: number | null, g: Glyphs): string {
  return usd === null ? g.none : formatCost(usd);
}

/** Seconds: `4.2s` under a minute, `2m05s` from there. */
export function secondsCell(sec: number): string {
  if (sec < 60) return `${sec.toFixed(1)}s`;
  const whole = Math.round(sec);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s`;
}

/** `native × gpt-4.1`, its names made safe for a terminal. */
export function rowLabel(row: Pick<SummaryRow, "harness" | "model">, g: Glyphs): string {
  return `${terminalText(row.harness)} ${g.times} ${terminalText(row.model)}`;
}

/** How a column lines up. */
export type Align = "left" | "right";

/**
 * `header` and `rows` as aligned lines (two spaces between columns), the header underlined with
 * `rule` (not a blank header); trailing spaces trimmed. Cells are plain text: style whole lines after.
 */
export function layoutTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  { align, rule }: { align: readonly Align[]; rule: string },
): { header: string; rule: string; rows: string[] } {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => align[i] === "right" ? c.padStart(widths[i]) : c.padEnd(widths[i]))
      .join("  ").trimEnd();
  return {
    header: line(header),
    rule: widths.map((w, i) => (header[i] ? rule : " ").repeat(w)).join("  ").trimEnd(),
    rows: rows.map(line),
  };
}
