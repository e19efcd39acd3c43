import assert from "node:assert/strict";
import { makeRecord, makeRuns, realisticRecords } from "./_test_records.ts";
import { differences, median, summarize, summarizeRow, wilson } from "./stats.ts";

function near(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) < 0.001, `${what}: ${actual}, expected ${expected}`);
}

Deno.test("wilson() gives the known 95% intervals", () => {
  const cases: [number, number, number, number][] = [
    [3, 3, 0.4385, 1],
    [0, 3, 0, 0.5615],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
    [1, 2, 0.0945, 0.9055],
  ];
  for (const [passes, n, low, high] of cases) {
    const interval = wilson(passes, n);
    near(interval.low, low, `wilson(${passes}, ${n}).low`);
    near(interval.high, high, `wilson(${passes}, ${n}).high`);
  }
});

Deno.test("wilson() takes another z and spans everything with no trials", () => {
  const narrow = wilson(5, 10, { z: 1 });
  assert.ok(narrow.low > 0.3 && narrow.high < 0.7);
  assert.deepEqual(wilson(0, 0), { low: 0, high: 1 });
});

Deno.test("median() takes the middle, or the mean of the middle two", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.equal(median([]), 0);
  const input = [3, 1, 2];
  median(input);
  assert.deepEqual(input, [3, 1, 2], "the input is not sorted in place");
});

Deno.test("summarize() makes a row per harness × model with medians and totals", () => {
  const [task] = summarize(realisticRecords());
  assert.equal(task.task, "fix-bug");
  const byHarness = Object.fromEntries(task.rows.map((r) => [r.harness, r]));
  const native = byHarness.native;
  assert.equal(native.n, 3);
  assert.equal(native.passes, 3);
  assert.equal(native.passRate, 1);
  near(native.interval!.low, 0.4385, "native interval");
  assert.equal(native.medianSteps, 7);
  assert.equal(native.medianTokens, 11_600 + 900);
  near(native.totalCost!, 0.036, "native total cost");
  near(native.meanCost!, 0.012, "native mean cost");
  near(native.medianTimeSec, 4.4, "native median time");
  assert.deepEqual(native.runs.map((r) => r.attempt), [1, 2, 3]);

  const claude = byHarness["claude-code"];
  assert.equal(claude.failedCalls, 7);
  near(claude.failedCallRate, 7 / 30, "claude-code failed-call rate");

  const minimal = byHarness.minimal;
  assert.equal(minimal.passRate, 0);
  assert.equal(minimal.loopGuardStops, 3);
  assert.equal(minimal.failedCalls, 15);
  near(minimal.failedCallRate, 15 / (36 + 9), "format errors count in the denominator");
});

Deno.test("summarize() sorts by pass rate, then steps, then tokens, and flags the best", () => {
  const rows = summarize(realisticRecords())[0].rows;
  assert.deepEqual(rows.map((r) => r.harness), ["native", "claude-code", "minimal"]);
  assert.deepEqual(rows.map((r) => r.best), [true, true, false], "both 3/3 rows are best");
  assert.deepEqual(rows.map((r) => r.tie), [true, true, false], "and each is marked a tie");

  const alone = summarize([
    ...makeRuns("a", 3, () => ({})),
    ...makeRuns("b", 3, (i) => ({ passed: i === 1 })),
  ])[0].rows;
  assert.deepEqual(alone.map((r) => [r.harness, r.best, r.tie]), [
    ["a", true, false],
    ["b", false, false],
  ]);

  const tied = summarize([
    ...makeRuns("a", 3, () => ({ requests: 5, tokens: { input: 900, output: 100, cached: 0 } })),
    ...makeRuns("b", 3, () => ({ requests: 5, tokens: { input: 400, output: 100, cached: 0 } })),
  ])[0].rows;
  assert.deepEqual(tied.map((r) => r.harness), ["b", "a"], "fewer tokens break a tie on steps");
});

Deno.test("summarize() groups by task and flags no best row when nothing passed", () => {
  const tasks = summarize([
    makeRecord({ task: "zeta", passed: false }),
    makeRecord({ task: "alpha" }),
    makeRecord({ task: "zeta", harness: "pi", passed: false }),
  ]);
  assert.deepEqual(tasks.map((t) => t.task), ["alpha", "zeta"]);
  assert.ok(tasks[1].rows.every((r) => !r.best));
});

Deno.test("summarizeRow() leaves out the interval under 3 runs and the cost when one is unknown", () => {
  const row = summarizeRow([
    makeRecord({ attempt: 1 }),
    makeRecord({ attempt: 2, cost_usd: null }),
  ]);
  assert.equal(row.interval, null);
  assert.equal(row.totalCost, null);
  assert.equal(row.meanCost, null);
});

Deno.test("summarizeRow() uses the mean reward when rewards are fractional", () => {
  const row = summarizeRow([
    makeRecord({ attempt: 1, reward: 0.5, passed: false }),
    makeRecord({ attempt: 2, reward: 1 }),
    makeRecord({ attempt: 3, reward: 0.25, passed: false }),
  ]);
  assert.equal(row.passes, 1);
  near(row.passRate, 0.5833, "mean reward");
  assert.deepEqual(row.interval, wilson(1.75, 3));
});

Deno.test("differences() names only pairs whose intervals do not overlap", () => {
  assert.deepEqual(
    differences(summarize(realisticRecords())[0].rows),
    [],
    "3/3 against 0/3 is noise",
  );

  const rows = summarize([
    ...makeRuns("weak", 10, () => ({ passed: false })),
    ...makeRuns("strong", 10, () => ({})),
    ...makeRuns("middle", 10, (a) => ({ passed: a <= 5 })),
    ...makeRuns("few", 2, () => ({})),
  ])[0].rows;
  const found = differences(rows).map((d) => [d.better.harness, d.worse.harness]);
  assert.deepEqual(found, [["strong", "weak"]]);
});
