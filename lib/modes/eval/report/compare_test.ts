import assert from "node:assert/strict";
import { assertGolden, makeRuns, realisticRecords } from "./_test_records.ts";
import { compareJobs, renderComparison } from "./compare.ts";
import type { RunRecord } from "../types.ts";

const task = "fix-bug";

/** Job A: the realistic job with minimal run 10 times (0/10). */
function jobA(): RunRecord[] {
  return [
    ...realisticRecords().filter((r) => r.harness !== "minimal"),
    ...makeRuns("minimal", 10, () => ({ task, passed: false, requests: 16 })),
  ];
}

/**
 * Job B: minimal fixed (10/10, fewer steps), native worse but within the noise (2/3), pi new,
 * claude-code gone.
 */
function jobB(): RunRecord[] {
  return [
    ...realisticRecords().filter((r) => r.harness === "native")
      .map((r) => r.attempt === 3 ? { ...r, passed: false, reward: 0 } : r),
    ...makeRuns("minimal", 10, () => ({ task, requests: 9 })),
    ...makeRuns("pi", 3, () => ({ task })),
  ];
}

Deno.test("compareJobs() pairs rows by task × harness × model and calls out only real changes", () => {
  const rows = compareJobs(jobA(), jobB());
  const changes = Object.fromEntries(rows.map((r) => [r.harness, r.change]));
  assert.deepEqual(changes, {
    "claude-code": "only_a",
    minimal: "better",
    native: "within_noise",
    pi: "only_b",
  });
  const minimal = rows.find((r) => r.harness === "minimal")!;
  assert.equal(minimal.a!.passRate, 0);
  assert.equal(minimal.b!.passRate, 1);
});

Deno.test("compareJobs() calls a drop worse only when the intervals part", () => {
  const rows = compareJobs(
    makeRuns("native", 10, () => ({ task })),
    makeRuns("native", 10, () => ({ task, passed: false })),
  );
  assert.equal(rows[0].change, "worse");
  const small = compareJobs(
    makeRuns("native", 3, () => ({ task })),
    makeRuns("native", 3, () => ({ task, passed: false })),
  );
  assert.equal(small[0].change, "within_noise", "3/3 against 0/3 overlaps");
});

Deno.test("renderComparison() plain matches tests/golden/eval/compare.txt", async () => {
  const text = renderComparison(
    { label: "baseline", records: jobA() },
    { label: "candidate", records: jobB() },
    { color: false },
  );
  await assertGolden("compare.txt", text);
  assert.ok(!/[^\x20-\x7e\n]/.test(text), "plain output is printable ASCII");
  assert.match(text, /^minimal x gpt-4\.1 .*\+100 pts, steps -7, .*better \(significant\)$/m);
  assert.match(text, /^native x gpt-4\.1 .*-33 pts, .*within noise$/m);
  assert.match(text, /^claude-code x gpt-4\.1 .*only in A$/m);
  assert.match(text, /^pi x gpt-4\.1 +- +- +- +- +3\/3 100% .*only in B$/m);
  assert.match(text, /B is significantly better in 1 and worse in 0 of 4 rows/);
});

Deno.test("renderComparison() with color paints a significant change", () => {
  const text = renderComparison(
    { label: "baseline", records: jobA() },
    { label: "candidate", records: jobB() },
    { color: true },
  );
  const minimal = text.split("\n").find((line) => line.includes("minimal × gpt-4.1"))!;
  assert.ok(minimal.startsWith("\x1b[32m") && minimal.endsWith("better (significant)\x1b[0m"));
  assert.match(text, /44–100%/);
});

Deno.test("renderComparison() says when nothing changed beyond the noise", () => {
  const text = renderComparison(
    { label: "a", records: realisticRecords() },
    { label: "b", records: realisticRecords() },
    { color: false },
  );
  assert.match(text, /No change is larger than the noise/);
  assert.equal(
    renderComparison({ label: "a", records: [] }, { label: "b", records: [] }, { color: false }),
    "A: a (0 runs)\nB: b (0 runs)\n\nNo runs to compare.\n",
  );
});
