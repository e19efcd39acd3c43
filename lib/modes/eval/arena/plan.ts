/**
 * The arena's contestants (every harness × model pair, labelled a, b, c…) and how `--pick best`
 * ranks them: a passing check first, then fewest failed calls, then lowest cost (unknown after
 * known), then smallest diff.
 */
import { UsageError } from "../../../errors.ts";
import type { PreparedJob } from "../job.ts";
import { failedCallsOf } from "../report/stats.ts";
import type { RunRecord } from "../types.ts";

/** One harness × model pair of the arena. */
export interface Contestant {
  label: string;
  harness: string;
  model: string;
}

/** An arena ready to run: its eval job and its contestants by trial. */
export interface PlannedArena {
  job: PreparedJob;
  contestants: Contestant[];
  /** The contestant of each trial folder. */
  byTrial: Map<string, Contestant>;
  /** Where arena job folders go: routes are learned from all of them. */
  arenaHome: string;
  cwd: string;
}

/** The most contestants an arena labels (a to z). */
const MAX_CONTESTANTS = 26;

/** Labels `pairs` a, b, c… in order; an arena needs two of them. */
export function contestantsOf(pairs: Array<{ harness: string; model: string }>): Contestant[] {
  if (pairs.length < 2) {
    const only = pairs[0] ? ` (${pairs[0].harness} × ${pairs[0].model})` : "";
    throw new UsageError(`An arena needs two or more contestants; this one has one${only}`, {
      hint: "Add harnesses with --harness a,b or models with -m m1,m2 " +
        '(e.g. interpreter arena --harness native,minimal "PROMPT")',
    });
  }
  if (pairs.length > MAX_CONTESTANTS) {
    throw new UsageError(`${pairs.length} contestants are too many for one arena`, {
      hint: `Name at most ${MAX_CONTESTANTS} harness × model pairs with --harness and -m`,
    });
  }
  return pairs.map((p, i) => ({ label: labelOf(i), harness: p.harness, model: p.model }));
}

/** `a` for 0, `b` for 1… */
function labelOf(index: number): string {
  return String.fromCharCode(97 + index);
}

/** The contestant a typed letter or 1-based number names; undefined when none. */
export function contestantNamed(which: string, contestants: Contestant[]): Contestant | undefined {
  const text = which.trim().toLowerCase();
  const index = /^\d+$/.test(text)
    ? Number(text) - 1
    : contestants.findIndex((c) => c.label === text);
  return contestants[index];
}

/** `--pick N` naming no contestant, refused before anything runs. */
export function requireContestant(which: string, contestants: Contestant[]): Contestant {
  const found = contestantNamed(which, contestants);
  if (found) return found;
  const last = contestants.at(-1)!.label;
  throw new UsageError(`--pick ${which} names no contestant: there are ${contestants.length}`, {
    hint: `Pick a letter a-${last} or a number 1-${contestants.length}, or best or none`,
  });
}

function diffSize(record: RunRecord): number {
  return record.diff ? record.diff.added + record.diff.deleted : Number.POSITIVE_INFINITY;
}

/** The contestants best first (`--pick best`); equal ones keep their order. */
export function rankContestants<T extends { record: RunRecord }>(entries: readonly T[]): T[] {
  const cost = (r: RunRecord) => r.cost_usd ?? Number.POSITIVE_INFINITY;
  return [...entries].sort((x, y) => {
    const [a, b] = [x.record, y.record];
    return Number(b.passed) - Number(a.passed) ||
      failedCallsOf(a) - failedCallsOf(b) ||
      compareNumbers(cost(a), cost(b)) ||
      compareNumbers(diffSize(a), diffSize(b));
  });
}

function compareNumbers(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The contestant `--pick best` applies: the best, when its check passed. */
export function bestPassing<T extends { record: RunRecord }>(entries: readonly T[]): T | undefined {
  const [best] = rankContestants(entries);
  return best?.record.passed ? best : undefined;
}
