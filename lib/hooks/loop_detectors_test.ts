import assert from "node:assert/strict";
import {
  CycleWatch,
  ProgressWatch,
  SameCallRun,
  type SeenCall,
  seenCall,
} from "./loop_detectors.ts";

/** A call of tool `name` with `args`, as the guard sees it once it got `result`. */
function seen(
  name: string,
  args: unknown,
  result: { text: string; isError?: boolean; output?: unknown },
  tool: { capability?: string; mutates?: boolean } = { capability: "shell.run", mutates: true },
): SeenCall {
  return seenCall({ name, args, ...tool }, { isError: false, ...result });
}

const READ = { capability: "fs.read", mutates: false };
const fails = (cmd: string) =>
  seen("bash", { command: cmd }, { text: "", output: { exitCode: 1, output: `${cmd}: no` } });
const reads = (path: string, text = "same") => seen("Read", { path }, { text }, READ);

Deno.test("seenCall() ignores key order and timings, and tells failures, reads and polls apart", () => {
  const a = seen("bash", { a: 1, b: 2 }, { text: "x", output: { exitCode: 0, durationMs: 5 } });
  const b = seen("bash", { b: 2, a: 1 }, { text: "x", output: { exitCode: 0, durationMs: 9 } });
  assert.equal(a.outcome, b.outcome);
  assert.equal(a.failed, false);
  assert.equal(fails("x").failed, true);
  assert.equal(reads("a").read, true);
  assert.equal(a.read, false, "a command may change things");
  const poll = seen("BashOutput", { id: "1" }, { text: "running" }, {
    capability: "shell.output",
    mutates: false,
  });
  assert.equal(poll.polls, true);
});

Deno.test("SameCallRun counts the same failure or read in a row; anything else starts over", () => {
  const run = new SameCallRun();
  assert.deepEqual([1, 2, 3].map(() => run.see(fails("cat x"))?.count), [1, 2, 3]);
  assert.equal(run.see(fails("cat x"))?.shape, "failing_call");
  assert.equal(run.see(reads("a"))?.count, 1, "another call starts over");
  const third = [run.see(reads("a")), run.see(reads("a"))].at(-1);
  assert.equal(third?.shape, "same_read");
  assert.equal(third?.count, 3);
  assert.equal(third?.call.shape, "same_read");
  assert.equal(run.see(reads("a", "changed"))?.count, 1, "a different result starts over");
  const ok = seen("bash", { command: "true" }, { text: "", output: { exitCode: 0 } });
  assert.equal([run.see(ok), run.see(ok), run.see(ok)].find(Boolean), undefined, "polling");
  const poll = () =>
    seen("BashOutput", { id: "1" }, { text: "running" }, { capability: "shell.output" });
  assert.equal([run.see(poll()), run.see(poll()), run.see(poll())].find(Boolean), undefined);
});

Deno.test("CycleWatch counts the rounds of A,B and A,B,C cycles with the same results", () => {
  const cycles = new CycleWatch(3);
  const [a, b, c] = [reads("a"), fails("make"), reads("c")];
  const seq = [a, b, a, b, a, b, a, b].map((call) => cycles.see(call)?.count);
  assert.deepEqual(seq, [undefined, undefined, undefined, 2, undefined, 3, undefined, 4]);
  const three = new CycleWatch(3);
  const last = [a, b, c, a, b, c, a, b, c].map((call) => three.see(call)).at(-1);
  assert.equal(last?.count, 3);
  assert.equal(last?.call.name, "Read → bash → Read");
  assert.match(last?.call.error ?? "", /make: no/, "the failure in the cycle");
  const rotated = new CycleWatch(3);
  const entered = [b, c, a, b, c, a, b, c, a].map((call) => rotated.see(call)).at(-1);
  assert.equal(entered?.key, last?.key, "the same cycle, entered at another call");
});

Deno.test("CycleWatch ignores one call repeated, and a cycle whose results change", () => {
  const cycles = new CycleWatch(3);
  assert.ok([1, 2, 3, 4, 5, 6].every(() => cycles.see(reads("a")) === undefined));
  const changing = new CycleWatch(3);
  const seq = [0, 1, 2, 3, 4, 5].flatMap((i) => [reads("a", `v${i}`), reads("b")]);
  assert.ok(seq.every((call) => changing.see(call) === undefined));
});

Deno.test("ProgressWatch counts steps that only repeat earlier calls with the same outcome", () => {
  const progress = new ProgressWatch();
  const step = (...calls: SeenCall[]) => {
    for (const call of calls) progress.see(call);
    return progress.endStep(calls.length > 0)?.count;
  };
  assert.equal(step(reads("a")), undefined, "a new call is progress");
  assert.equal(step(reads("a")), 1);
  assert.equal(step(reads("a"), fails("x")), undefined, "one new call in the step is enough");
  assert.equal(step(fails("x")), 1);
  assert.equal(step(), 2, "a step without calls (a format error) makes none");
  assert.equal(step(reads("a", "changed")), undefined, "a call whose result changed is progress");
  const poll = seen("BashOutput", { id: "1" }, { text: "running" }, {
    capability: "shell.output",
    mutates: false,
  });
  assert.equal(step(poll), undefined);
  assert.equal(step(poll), undefined, "a step that only polls neither counts nor resets");
  assert.equal(step(reads("a", "changed")), 1);
  const last = (() => {
    progress.see(fails("x"));
    return progress.endStep(true);
  })();
  assert.equal(last?.count, 2, "the polls did not reset the count");
  assert.equal(last?.call.name, "bash");
});
