import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "./load.ts";
import { todoReminderAfterCall } from "./reminders.ts";

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
