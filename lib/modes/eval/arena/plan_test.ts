import assert from "node:assert/strict";
import { UsageError } from "../../../errors.ts";
import { makeRecord, type RecordFacts } from "../report/_test_records.ts";
import {
  bestPassing,
  contestantNamed,
  contestantsOf,
  rankContestants,
  requireContestant,
} from "./plan.ts";

const entry = (label: string, facts: RecordFacts) => ({ label, record: makeRecord(facts) });
const order = (entries: Array<{ label: string }>) => entries.map((e) => e.label).join("");

Deno.test("rankContestants puts a passing check first, then fewest failed calls, then lowest cost, then smallest diff", () => {
  const diff = (added: number) => ({ files: 1, added, deleted: 0 });
  const entries = [
    entry("a", { passed: false, cost_usd: 0 }),
    entry("b", { failed: { command: 2 }, cost_usd: 0.01 }),
    entry("c", { failed: { arguments: 1 }, cost_usd: 0.05 }),
    entry("d", { failed: { unknown_tool: 1 }, cost_usd: 0.02, diff: diff(9) }),
    entry("e", { failed: { other: 1 }, cost_usd: 0.02, diff: diff(4) }),
  ];
  assert.equal(order(rankContestants(entries)), "edcba");
});

Deno.test("rankContestants sorts an unknown cost after every known one and keeps equal ones in order", () => {
  const entries = [
    entry("a", { cost_usd: null }),
    entry("b", { cost_usd: 0.3 }),
    entry("c", { cost_usd: null }),
    entry("d", { cost_usd: 0.3 }),
  ];
  assert.equal(order(rankContestants(entries)), "bdac");
});

Deno.test("bestPassing answers the best contestant only when its check passed", () => {
  const failing = [entry("a", { passed: false }), entry("b", { passed: false })];
  assert.equal(bestPassing(failing), undefined);
  assert.equal(bestPassing([...failing, entry("c", { failed: { command: 4 } })])?.label, "c");
});

Deno.test("contestantsOf labels pairs a, b, c in order and refuses fewer than two, naming how to add more", () => {
  const pairs = [
    { harness: "native", model: "m1" },
    { harness: "minimal", model: "m1" },
    { harness: "native", model: "m2" },
  ];
  assert.deepEqual(contestantsOf(pairs).map((c) => c.label), ["a", "b", "c"]);
  assert.throws(
    () => contestantsOf(pairs.slice(0, 1)),
    (e: unknown) =>
      e instanceof UsageError && /native × m1/.test(e.message) && /--harness a,b/.test(e.hint!),
  );
});

Deno.test("a contestant is named by its letter or its 1-based number; others are refused", () => {
  const contestants = contestantsOf([
    { harness: "native", model: "m" },
    { harness: "minimal", model: "m" },
  ]);
  assert.equal(contestantNamed("B", contestants)?.harness, "minimal");
  assert.equal(contestantNamed("1", contestants)?.harness, "native");
  assert.equal(contestantNamed("3", contestants), undefined);
  assert.equal(contestantNamed("0", contestants), undefined);
  assert.throws(
    () => requireContestant("c", contestants),
    (e: unknown) => e instanceof UsageError && /letter a-b or a number 1-2/.test(e.hint!),
  );
});
