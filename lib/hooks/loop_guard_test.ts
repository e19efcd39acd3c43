import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness, loadHarnessDir } from "../harness/load.ts";
import { listHarnessIds } from "../harness/load.ts";
import { type Block, type Message, textOf } from "../model/message.ts";
import { runTestTurn } from "../../tests/_run_turn.ts";
import { call, freshState, scriptedProvider } from "../loop/_test_loop.ts";
import { LoopGuard, loopReminder } from "./loop_guard.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** One turn of the native harness in a temp dir against scripted replies. */
async function run(replies: Block[][], opts: { repeats?: number; harness?: string } = {}) {
  const cwd = await Deno.makeTempDir({ prefix: "oi_guard_" });
  try {
    await Deno.writeTextFile(`${cwd}/status.txt`, "still running\n");
    const harness = await loadHarness(opts.harness ?? "native", { builtinDir: HARNESSES });
    const { provider, requests } = scriptedProvider(replies);
    const state = freshState();
    const outcome = await runTestTurn(state, {
      provider,
      harness,
      cwd,
      loopGuardRepeats: opts.repeats,
    });
    const results = state.messages.filter((m) => m.role === "tool_result").map((m) =>
      textOf(m.blocks)
    );
    return { outcome, requests, results, state };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

const failing = (id: string) => [call(id, "exec_command", { cmd: "cat missing.txt" })];
const done: Block[] = [{ type: "text", text: "done" }];

Deno.test("the same failing call three times gets the harness's reminder; a fourth stops the turn", async () => {
  const { outcome, requests, results } = await run([
    failing("c1"),
    failing("c2"),
    failing("c3"),
    failing("c4"),
    done,
  ]);
  assert.equal(requests.length, 4, "no request after the stop");
  assert.equal(outcome.status, "repeated_call");
  if (outcome.status !== "repeated_call") return;
  assert.deepEqual(
    { ...outcome.call, error: "" },
    { name: "exec_command", args: { cmd: "cat missing.txt" }, error: "", repeats: 4 },
  );
  assert.match(outcome.call.error, /missing\.txt/);
  const reminder = /Warning: this exact exec_command call has now failed 3 times in a row/;
  assert.deepEqual(results.map((r) => reminder.test(r)), [false, false, true, false]);
  assert.equal(results.length, 4, "the stopping call has its result, so the history stays valid");
});

Deno.test("a call that keeps succeeding the same way (polling) is not a loop", async () => {
  const poll = (id: string) => [call(id, "exec_command", { cmd: "cat status.txt" })];
  const { outcome, results } = await run([
    poll("p1"),
    poll("p2"),
    poll("p3"),
    poll("p4"),
    poll("p5"),
    poll("p6"),
    done,
  ]);
  assert.deepEqual(outcome, { status: "completed", finalText: "done" });
  assert.ok(results.every((r) => !/Warning/.test(r)), results.join("\n---\n"));
});

Deno.test("a different call or a success in between starts the count again", async () => {
  const other = [call("o1", "exec_command", { cmd: "cat other-missing.txt" })];
  const ok = [call("k1", "exec_command", { cmd: "true" })];
  const { outcome } = await run([
    failing("c1"),
    failing("c2"),
    other,
    failing("c3"),
    failing("c4"),
    ok,
    failing("c5"),
    failing("c6"),
    done,
  ]);
  assert.deepEqual(outcome, { status: "completed", finalText: "done" });
});

Deno.test("loop_guard_repeats sets the count, and 0 turns the guard off", async () => {
  const two = await run([failing("c1"), failing("c2"), failing("c3"), done], { repeats: 2 });
  assert.equal(two.outcome.status, "repeated_call");
  assert.equal(two.requests.length, 3);
  const off = await run([...Array.from({ length: 6 }, (_, i) => failing(`c${i}`)), done], {
    repeats: 0,
  });
  assert.deepEqual(off.outcome, { status: "completed", finalText: "done" });
});

Deno.test("looping on the same call again after the reminder stops the turn at once", async () => {
  const ok = [call("k1", "exec_command", { cmd: "true" })];
  const { outcome, requests } = await run([
    failing("c1"),
    failing("c2"),
    failing("c3"),
    ok,
    failing("c4"),
    failing("c5"),
    failing("c6"),
    done,
  ]);
  assert.equal(outcome.status, "repeated_call");
  assert.equal(requests.length, 7);
});

Deno.test("text-protocol harnesses get the reminder in their observation and stop the same way", async () => {
  const reply = (): Block[] => [{
    type: "text",
    text: "THOUGHT: read it\n\n```bash\ncat missing.txt\n```",
  }];
  const { outcome, state } = await run(
    [reply(), reply(), reply(), reply(), done],
    { harness: "mini-swe-agent" },
  );
  assert.equal(outcome.status, "repeated_call");
  const observations = state.messages.slice(1).filter((m: Message) => m.role === "user")
    .map((m) => textOf(m.blocks));
  assert.equal(observations.length, 4);
  assert.match(observations[2], /Note: this command has failed the same way 3 times in a row/);
});

Deno.test("every built-in harness has a loop reminder in its own words", async () => {
  const texts = new Set<string>();
  for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
    const harness = await loadHarnessDir(`${HARNESSES}/${id}`);
    const own = harness.reminders.find((r) => r.when === "loop");
    assert.ok(own, `${id} has no [[reminders]] when = "loop"`);
    const text = loopReminder(harness, "Bash", 3);
    assert.doesNotMatch(text, /\{tool\}|\{repeats\}/, id);
    assert.match(text, /3/, id);
    texts.add(own.text);
  }
  assert.ok(texts.size >= 8, "vendors word it their own way");
});

Deno.test("LoopGuard leaves out timings when it compares two failures", async () => {
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const guard = new LoopGuard(2, harness);
  const result = (durationMs: number) => ({
    text: `Wall time: ${durationMs} seconds`,
    isError: true,
    output: { exitCode: 1, output: "boom", durationMs },
  });
  const c = { name: "exec_command", args: { cmd: "boom" } };
  assert.equal(guard.afterCall(c, result(1.5)).action, "none");
  assert.equal(guard.afterCall(c, result(2.25)).action, "remind");
  assert.equal(guard.afterCall({ ...c, args: { cmd: "boom " } }, result(2)).action, "none");
});
