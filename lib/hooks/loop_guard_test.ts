import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness, loadHarnessDir } from "../harness/load.ts";
import { listHarnessIds } from "../harness/load.ts";
import { type Block, type Message, textOf } from "../model/message.ts";
import { runTestTurn } from "../../tests/_run_turn.ts";
import type { LoopShape } from "../harness/loop_shape_names.ts";
import { loopReminderText } from "../harness/reminder_texts.ts";
import { capabilityById } from "../tools/registry.ts";
import { call, freshState, scriptedProvider } from "../loop/_test_loop.ts";
import { LoopGuard, type LoopGuardLimits, loopGuardLimits, loopReminder } from "./loop_guard.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** One turn of the native harness in a temp dir against scripted replies. */
async function run(
  replies: Block[][],
  opts: { repeats?: number; harness?: string; limits?: Partial<LoopGuardLimits> } = {},
) {
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
      loopGuard: opts.limits,
    });
    const results = state.messages.filter((m) => m.role === "tool_result").map((m) =>
      textOf(m.blocks)
    );
    const observations = state.messages.slice(1).filter((m: Message) => m.role === "user")
      .map((m) => textOf(m.blocks));
    return { outcome, requests, results, observations, state };
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
    "a failing call has no shape, as before shapes",
  );
  assert.match(outcome.call.error, /missing\.txt/);
  assert.equal(outcome.words.headline, "the same failing call 4 times in a row", "in words");
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

Deno.test("every built-in harness words each loop it can run into, with its numbers filled in", async () => {
  for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
    const harness = await loadHarnessDir(`${HARNESSES}/${id}`);
    const reads = harness.tools.some((t) =>
      capabilityById(t.capability)?.mutates === false && t.capability !== "shell.output"
    );
    const shapes: LoopShape[] = [
      "cycle",
      "no_progress",
      "repeated_span",
      ...(harness.protocol ? ["format_error" as const] : []),
      ...(reads ? ["same_read" as const] : []),
    ];
    for (const shape of shapes) {
      const own = harness.reminders.find((r) => r.when === "loop" && r.shape === shape);
      assert.ok(own, `${id} has no loop reminder for ${shape}`);
      const text = loopReminderText(harness, shape, { tool: "Read, Grep", repeats: 7 });
      assert.doesNotMatch(text, /\{tool\}|\{repeats\}/, `${id} ${shape}`);
      assert.match(text, /7/, `${id} ${shape}`);
    }
  }
});

Deno.test("LoopGuard leaves out timings when it compares two failures", async () => {
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const guard = new LoopGuard({ repeats: 2 }, harness);
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

const ok = (id: string) => [call(id, "exec_command", { cmd: "cat status.txt" })];

Deno.test("an A,B,A,B cycle gets the harness's cycle reminder after 3 rounds and stops at 4", async () => {
  const ab = (i: number) => [...ok(`a${i}`), ...failing(`b${i}`)].map((b) => [b]);
  const { outcome, requests, results } = await run([...[1, 2, 3, 4, 5].flatMap(ab), done]);
  assert.equal(requests.length, 8, "no request after the fourth round");
  assert.equal(outcome.status, "repeated_call");
  if (outcome.status !== "repeated_call") return;
  assert.equal(outcome.call.shape, "cycle");
  assert.equal(outcome.call.name, "exec_command → exec_command");
  assert.equal(outcome.call.repeats, 4);
  assert.match(outcome.call.error, /missing\.txt/);
  const reminder =
    /Warning: you have cycled through the same calls \(exec_command, exec_command\) 3 times/;
  assert.deepEqual(results.map((r) => reminder.test(r)), [
    ...Array(5).fill(false),
    true,
    false,
    false,
  ]);
});

Deno.test("the same successful read three times gets the read reminder; a fourth stops the turn", async () => {
  const read = (id: string) => [call(id, "Read", { file_path: "status.txt" })];
  const { outcome, requests, results } = await run(
    [read("r1"), read("r2"), read("r3"), read("r4"), read("r5"), done],
    { harness: "claude-code" },
  );
  assert.equal(requests.length, 4);
  assert.equal(outcome.status, "repeated_call");
  if (outcome.status !== "repeated_call") return;
  assert.equal(outcome.call.shape, "same_read");
  assert.deepEqual(outcome.call.args, { file_path: "status.txt" });
  assert.match(
    results[2],
    /<system-reminder>\nYou have called Read with the same input 3 times in a row and got the same result/,
  );
  assert.doesNotMatch(results[1], /system-reminder/);
});

Deno.test("eight steps without progress get the reminder, a ninth stops; new calls reset the count", async () => {
  const { outcome, requests, results } = await run([
    ...Array.from({ length: 12 }, (_, i) => ok(`p${i}`)),
    done,
  ]);
  assert.equal(requests.length, 10, "the first call, eight repeats, and the one that stops");
  assert.equal(outcome.status, "repeated_call");
  if (outcome.status !== "repeated_call") return;
  assert.equal(outcome.call.shape, "no_progress");
  assert.equal(outcome.call.repeats, 9);
  assert.match(results[8], /Warning: your last 8 steps only repeated calls you had already made/);
  const fresh = (i: number) => [call(`n${i}`, "exec_command", { cmd: `cat status.txt # ${i}` })];
  const mixed = await run([
    ...[0, 1, 2, 3, 4].flatMap((i) => [ok(`p${i}`), ok(`q${i}`), fresh(i)]),
    done,
  ]);
  assert.deepEqual(mixed.outcome, { status: "completed", finalText: "done" });
  const off = await run([...Array.from({ length: 12 }, (_, i) => ok(`p${i}`)), done], {
    limits: { noProgressSteps: 0 },
  });
  assert.deepEqual(off.outcome, { status: "completed", finalText: "done" });
});

for (const harness of ["swe-agent", "mini-swe-agent"]) {
  Deno.test(`${harness}: replies without a command get the reminder after 3 and stop at 4`, async () => {
    const prose = (): Block[] => [{ type: "text", text: "I will just think about it." }];
    const { outcome, requests, observations } = await run(
      Array.from({ length: 20 }, prose),
      { harness },
    );
    assert.equal(requests.length, 4, "not 1000");
    assert.equal(outcome.status, "repeated_call");
    if (outcome.status !== "repeated_call") return;
    assert.deepEqual({ ...outcome.call, error: "" }, {
      shape: "format_error",
      name: "format error",
      args: undefined,
      error: "",
      repeats: 4,
    });
    assert.match(outcome.call.error, /^Your reply could not be (used|run): your reply has no/);
    assert.equal(observations.length, 4);
    assert.match(observations[0], /^Your reply could not be/);
    assert.doesNotMatch(observations[1], /last 2 replies/);
    assert.match(
      observations[2],
      /^Your reply could not be[\s\S]*\n\n(NOTE|Note): your last 3 replies could not be/,
    );
  });
}

Deno.test("a reply with a command in between starts the count of format errors again", async () => {
  const prose = (): Block[] => [{ type: "text", text: "Thinking." }];
  const command = (): Block[] => [{ type: "text", text: "THOUGHT: look\n\n```bash\nls\n```" }];
  const { outcome } = await run(
    [prose(), prose(), command(), prose(), prose(), command(), [{
      type: "text",
      text:
        "THOUGHT: done\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo finished\n```",
    }]],
    { harness: "mini-swe-agent" },
  );
  assert.deepEqual(outcome, { status: "completed", finalText: "finished" });
});

Deno.test("loopGuardLimits() reads [loop_guard], then loop_guard_repeats, then the defaults", () => {
  const defaults = loopGuardLimits({});
  assert.deepEqual(defaults, {
    repeats: 3,
    formatErrors: 3,
    cycleRepeats: 3,
    sameReadRepeats: 3,
    noProgressSteps: 8,
    repeatedSpanRepeats: 20,
    repeatedSpanMinChars: 16,
  });
  assert.equal(loopGuardLimits({ loop_guard_repeats: 5 }).repeats, 5);
  assert.equal(loopGuardLimits({ loop_guard_repeats: 5, loop_guard: { repeats: 2 } }).repeats, 2);
  const set = loopGuardLimits({ loop_guard: { cycle_repeats: 0, repeated_span_min_chars: 40 } });
  assert.deepEqual(set, { ...defaults, cycleRepeats: 0, repeatedSpanMinChars: 40 });
});
