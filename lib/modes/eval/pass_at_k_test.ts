import assert from "node:assert/strict";
import { eligibleK, passAtK, passAtKOfTask } from "./pass_at_k.ts";

/** C(n, k) by multiplication, to check the product form against the definition. */
function choose(n: number, k: number): number {
  if (k > n) return 0;
  let out = 1;
  for (let i = 0; i < k; i++) out = out * (n - i) / (i + 1);
  return out;
}

Deno.test("passAtKOfTask() is 1 - C(n-c,k)/C(n,k) for every n, c and k up to 12", () => {
  for (let n = 1; n <= 12; n++) {
    for (let c = 0; c <= n; c++) {
      for (let k = 1; k <= n; k++) {
        const expected = 1 - choose(n - c, k) / choose(n, k);
        assert.ok(Math.abs(passAtKOfTask(n, c, k) - expected) < 1e-12, `n=${n} c=${c} k=${k}`);
      }
    }
  }
  assert.equal(passAtKOfTask(5, 2, 3), 0.9);
});

Deno.test("eligibleK() takes powers of two from 2 and multiples of 5, up to the fewest trials", () => {
  assert.deepEqual(eligibleK(1), []);
  assert.deepEqual(eligibleK(2), [2]);
  assert.deepEqual(eligibleK(4), [2, 4]);
  assert.deepEqual(eligibleK(5), [2, 4, 5]);
  assert.deepEqual(eligibleK(16), [2, 4, 5, 8, 10, 15, 16]);
});

Deno.test("passAtK() averages the tasks, limits k by the task with fewest trials, counts a missing reward as a fail", () => {
  const trials = [
    ...[1, 0, 0, 0].map((reward) => ({ task: "a", reward })),
    ...[1, 1, null].map((reward) => ({ task: "b", reward })),
  ];
  // a: n=4 c=1 → pass@2 = 1 - C(3,2)/C(4,2) = 0.5; b: n=3 c=2 → 1. Only k=2 (b has 3 trials).
  assert.deepEqual(passAtK(trials), { "2": 0.75 });
  assert.deepEqual(passAtK([{ task: "a", reward: 1 }]), {});
  assert.deepEqual(passAtK([]), {});
});

Deno.test("passAtK() is empty when a reward is neither 0 nor 1, as Harbor leaves it", () => {
  assert.deepEqual(passAtK([{ task: "a", reward: 1 }, { task: "a", reward: 0.5 }]), {});
});
