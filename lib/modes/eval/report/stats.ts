/**
 * The numbers an eval report shows: per task, one row per harness × model with its pass rate, a
 * 95% Wilson score interval, and the medians and totals of what its runs counted. Pure: the
 * terminal report, the HTML page and the comparison of two jobs all read the same rows.
 *
 * Only a difference whose intervals do not overlap is called more than noise (`differences()`);
 * with three runs a row needs 3/3 against 0/3 to get close, which is the point.
 */
import type { RunRecord } from "../types.ts";

/** A confidence interval of a pass rate, both ends in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/** One harness × model of one task: what its runs add up to. */
export interface SummaryRow {
  harness: string;
  model: string;
  /** Runs. */
  n: number;
  /** Runs that passed. */
  passes: number;
  /** The mean reward where a verifier gave fractional rewards, else passes / n. */
  passRate: number;
  /** The 95% Wilson interval of `passRate`; null under 3 runs. */
  interval: Interval | null;
  /** Median model requests per run. */
  medianSteps: number;
  /** Failed calls of every kind over tool calls plus unparsable replies, over all runs. */
  failedCallRate: number;
  failedCalls: number;
  /** Median input + output tokens per run. */
  medianTokens: number;
  /** Null when any run's model had no price. */
  totalCost: number | null;
  meanCost: number | null;
  medianTimeSec: number;
  loopGuardStops: number;
  stepLimitStops: number;
  /** The first row after sorting, when it passed at all, and every row of the same pass rate. */
  best: boolean;
  /** A best row that shares its pass rate with another: a tie, whatever the order says. */
  tie: boolean;
  /** The row's runs by attempt. */
  runs: RunRecord[];
}

/** One task's rows, best first. */
export interface TaskSummary {
  task: string;
  rows: SummaryRow[];
}

/** Two rows whose intervals do not overlap: `better` passed more. */
export interface Difference {
  better: SummaryRow;
  worse: SummaryRow;
}

/** The fewest runs a row needs for an interval. */
export const MIN_RUNS_FOR_INTERVAL = 3;

/**
 * The Wilson score interval of `passes` successes in `n` trials (`z` 1.96: 95%). `passes` may be
 * fractional (a sum of rewards). With no trials it is the whole of [0, 1].
 */
export function wilson(passes: number, n: number, { z = 1.96 }: { z?: number } = {}): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = Math.min(1, Math.max(0, passes / n));
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/** The median of `numbers`: the mean of the middle two for an even count, 0 for none. */
export function median(numbers: readonly number[]): number {
  if (numbers.length === 0) return 0;
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Whether two intervals share a point. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.low <= b.high && b.low <= a.high;
}

/** `records` by task (sorted by name), each task's rows sorted best first. */
export function summarize(records: readonly RunRecord[]): TaskSummary[] {
  const byTask = groupBy(records, (r) => r.task);
  return [...byTask.keys()].sort().map((task) => {
    const groups = groupBy(byTask.get(task)!, (r) => JSON.stringify([r.harness, r.model]));
    const rows = [...groups.values()].map(summarizeRow).sort(compareRows);
    markBest(rows);
    return { task, rows };
  });
}

/** Marks the top rows (pass rate above 0); several of equal pass rate are each marked a tie. */
function markBest(rows: SummaryRow[]): void {
  const top = rows[0]?.passRate ?? 0;
  if (top <= 0) return;
  const best = rows.filter((r) => r.passRate === top);
  for (const r of best) {
    r.best = true;
    r.tie = best.length > 1;
  }
}

/** The row of one harness × model's runs (all of one task). */
export function summarizeRow(runs: readonly RunRecord[]): SummaryRow {
  const sorted = [...runs].sort((a, b) => a.attempt - b.attempt);
  const n = sorted.length;
  const passes = sorted.filter((r) => r.passed).length;
  const passRate = passRateOf(sorted);
  const failedCalls = sum(sorted.map(failedCallsOf));
  const attempted = sum(sorted.map((r) => r.tool_calls + r.failed_tool_calls.format));
  const costs = sorted.map((r) => r.cost_usd);
  const totalCost = costs.some((c) => c === null) ? null : sum(costs as number[]);
  return {
    harness: sorted[0]?.harness ?? "",
    model: sorted[0]?.model ?? "",
    n,
    passes,
    passRate,
    interval: n >= MIN_RUNS_FOR_INTERVAL ? wilson(passRate * n, n) : null,
    medianSteps: median(sorted.map((r) => r.requests)),
    failedCallRate: failedCalls / Math.max(1, attempted),
    failedCalls,
    medianTokens: median(sorted.map((r) => r.tokens.input + r.tokens.output)),
    totalCost,
    meanCost: totalCost === null || n === 0 ? null : totalCost / n,
    medianTimeSec: median(sorted.map((r) => r.time_sec.total)),
    loopGuardStops: sum(sorted.map((r) => r.loop_guard_stops)),
    stepLimitStops: sum(sorted.map((r) => r.step_limit_stops)),
    best: false,
    tie: false,
    runs: sorted,
  };
}

/** Every pair of rows whose intervals do not overlap, the better one first, in row order. */
export function differences(rows: readonly SummaryRow[]): Difference[] {
  const found: Difference[] = [];
  rows.forEach((a, i) => {
    for (const b of rows.slice(i + 1)) {
      if (!a.interval || !b.interval || overlaps(a.interval, b.interval)) continue;
      found.push(a.passRate >= b.passRate ? { better: a, worse: b } : { better: b, worse: a });
    }
  });
  return found;
}

/** Failed calls of every kind in one run. */
export function failedCallsOf(r: RunRecord): number {
  const f = r.failed_tool_calls;
  return f.arguments + f.unknown_tool + f.format + f.command + f.other;
}

/** Pass rate desc, then median steps asc, then median tokens asc, then by name. */
function compareRows(a: SummaryRow, b: SummaryRow): number {
  return b.passRate - a.passRate || a.medianSteps - b.medianSteps ||
    a.medianTokens - b.medianTokens || a.harness.localeCompare(b.harness) ||
    a.model.localeCompare(b.model);
}

/** The mean reward when any reward is fractional; passes / n otherwise. */
function passRateOf(runs: readonly RunRecord[]): number {
  if (runs.length === 0) return 0;
  const fractional = runs.some((r) => r.reward !== null && r.reward !== 0 && r.reward !== 1);
  const scores = runs.map((r) =>
    fractional && r.reward !== null ? Math.min(1, Math.max(0, r.reward)) : r.passed ? 1 : 0
  );
  return sum(scores) / runs.length;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function sum(numbers: readonly number[]): number {
  return numbers.reduce((a, b) => a + b, 0);
}
