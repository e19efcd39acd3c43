import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { loadHarness, loadHarnessDir } from "./load.ts";
import { BASE_FILES, BASE_SPEC, writeHarness } from "./_test_harness.ts";
import { loopReminderText, todoReminderAfterCall } from "./reminder_texts.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../../harnesses", import.meta.url)) };

Deno.test("todoReminderAfterCall() nudges after N calls with open items and no todo change", async () => {
  const kimi = await loadHarness("kimi-cli", dirs);
  const state = new Map<string, unknown>();
  const seen = () => Array.from({ length: 10 }, () => todoReminderAfterCall(kimi, state));
  assert.deepEqual(seen().filter(Boolean), [], "no todo list, no reminder");
  state.set("todos", [{ content: "fix it", status: "in_progress" }]);
  assert.equal(todoReminderAfterCall(kimi, state), undefined, "the call that changed the list");
  const calls = seen();
  assert.equal(calls.filter(Boolean).length, 1);
  assert.match(calls.at(-1)!, /^<system>Your todo list has not changed in a while\..*SetTodoList/);
  assert.deepEqual(seen().slice(0, 9).filter(Boolean), [], "then quiet for another N calls");
  state.set("todos", [{ content: "fix it", status: "completed" }]);
  assert.deepEqual([...seen(), ...seen()].filter(Boolean), [], "nothing open, no reminder");
});

Deno.test("a loop reminder loads with {tool} and {repeats}; after_calls or another field is an error", async () => {
  const root = await Deno.makeTempDir();
  try {
    const load = (entry: string) =>
      writeHarness(root, "t", `${BASE_SPEC}\n[[reminders]]\nwhen = "loop"\n${entry}\n`, BASE_FILES)
        .then(loadHarnessDir);
    const ok = await load('text = "<note>{tool} failed {repeats} times</note>"');
    assert.deepEqual(ok.reminders, [{
      when: "loop",
      shape: "failing_call",
      text: "<note>{tool} failed {repeats} times</note>",
    }]);
    await assert.rejects(
      () => load('after_calls = 3\ntext = "stop"'),
      (e: Error) =>
        e instanceof HarnessError &&
        /reminders\[0\]\.after_calls"?: a loop reminder takes no after_calls/.test(e.message) &&
        /\[loop_guard\]/.test((e as HarnessError & { hint?: string }).hint ?? ""),
    );
    await assert.rejects(
      () => load('text = "{tool} failed {count} times"'),
      (e: Error) =>
        e instanceof HarnessError &&
        /reminders\[0\]\.text"?: unknown placeholder \{count\}/.test(e.message),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loop reminders load one per shape; a shape on a todo reminder or twice is an error", async () => {
  const root = await Deno.makeTempDir();
  try {
    const load = (entries: string) =>
      writeHarness(root, "t", `${BASE_SPEC}\n${entries}\n`, BASE_FILES).then(loadHarnessDir);
    const loop = (shape: string, text: string) =>
      `[[reminders]]\nwhen = "loop"\nshape = "${shape}"\ntext = "${text}"\n`;
    const ok = await load(loop("cycle", "went round {repeats} times") + loop("same_read", "read"));
    assert.deepEqual(
      ok.reminders.map((r) => r.when === "loop" ? r.shape : r.when),
      ["cycle", "same_read"],
    );
    assert.equal(loopReminderText(ok, "cycle", { tool: "a, b", repeats: 3 }), "went round 3 times");
    assert.match(
      loopReminderText(ok, "failing_call", { tool: "Bash", repeats: 3 }),
      /same Bash call 3 times/,
      "a shape without its own text gets ours",
    );
    await assert.rejects(
      () => load(loop("cycle", "a") + loop("cycle", "b")),
      (e: Error) =>
        e instanceof HarnessError &&
        /reminders\[1\]"?: a second loop reminder for cycle/.test(e.message),
    );
    await assert.rejects(
      () =>
        load('[[reminders]]\nwhen = "todo_stale"\nshape = "cycle"\nafter_calls = 3\ntext = "x"'),
      (e: Error) =>
        e instanceof HarnessError &&
        /reminders\[0\]\.shape"?: only a loop reminder has a shape/.test(e.message),
    );
    await assert.rejects(() => load(loop("circle", "a")), HarnessError);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a goal_budget reminder is loaded with the goal's figures and refuses anything else", async () => {
  const root = await Deno.makeTempDir();
  try {
    const load = (entry: string) =>
      writeHarness(
        root,
        "t",
        `${BASE_SPEC}\n[[reminders]]\nwhen = "goal_budget"\n${entry}\n`,
        BASE_FILES,
      )
        .then(loadHarnessDir);
    const ok = await load('text = "{objective}: {used} of {budget}, {remaining} left"');
    assert.deepEqual(ok.reminders, [{
      when: "goal_budget",
      text: "{objective}: {used} of {budget}, {remaining} left",
    }]);
    await assert.rejects(
      () => load('text = "{tool} ran out"'),
      (e: Error) => e instanceof HarnessError && /unknown placeholder \{tool\}/.test(e.message),
    );
    await assert.rejects(
      () => load('after_calls = 3\ntext = "spent"'),
      (e: Error) => e instanceof HarnessError && /after_calls"? in a goal_budget/.test(e.message),
    );
    await assert.rejects(
      () => load('shape = "cycle"\ntext = "spent"'),
      (e: Error) => e instanceof HarnessError && /only a loop reminder has a shape/.test(e.message),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
