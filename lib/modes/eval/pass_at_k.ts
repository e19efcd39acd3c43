/**
 * pass@k as Harbor 0.22.0 writes it in a job's `result.json` (`stats.evals[key].pass_at_k`):
 * per task the unbiased estimator 1 - C(n-c, k) / C(n, k) over that task's n trials of which c
 * passed, then the mean over the tasks. k runs over 2, 4, 8… and 5, 10, 15… up to the fewest
 * trials any task has. A trial without a reward counts as a fail; a reward other than 0 or 1
 * means no pass@k at all (Harbor leaves it empty then).
 */

/** One trial as pass@k sees it: its task and its reward (null when the check gave none). */
export interface PassTrial {
  task: string;
  reward: number | null;
}

/** pass@k by k (the keys as JSON writes Harbor's `dict[int, float]`); empty when none applies. */
export function passAtK(trials: PassTrial[]): Record<string, number> {
  const byTask = new Map<string, number[]>();
  for (const trial of trials) {
    if (trial.reward !== null && trial.reward !== 0 && trial.reward !== 1) return {};
    const successes = byTask.get(trial.task) ?? [];
    successes.push(trial.reward === 1 ? 1 : 0);
    byTask.set(trial.task, successes);
  }
  if (byTask.size === 0) return {};
  const fewest = Math.min(...[...byTask.values()].map((s) => s.length));
  const out: Record<string, number> = {};
  for (const k of eligibleK(fewest)) {
    let sum = 0;
    for (const successes of byTask.values()) {
      sum += passAtKOfTask(successes.length, successes.filter((s) => s === 1).length, k);
    }
    out[String(k)] = sum / byTask.size;
  }
  return out;
}

/** The k values Harbor reports for tasks of at least `most` trials each, ascending. */
export function eligibleK(most: number): number[] {
  const ks = new Set<number>();
  for (let k = 2; k <= most; k *= 2) ks.add(k);
  for (let k = 5; k <= most; k += 5) ks.add(k);
  return [...ks].sort((a, b) => a - b);
}

/** The chance that at least one of k trials drawn from n (c of them passing) passes. */
export function passAtKOfTask(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}
