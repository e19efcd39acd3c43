import assert from "node:assert/strict";
import { disposeState } from "./_dispose_state.ts";

Deno.test("disposeState() disposes every disposable value and skips the rest", async () => {
  const ended: string[] = [];
  const state = new Map<string, unknown>([
    ["jobs", { [Symbol.asyncDispose]: () => Promise.resolve(void ended.push("jobs")) }],
    ["plain", { note: "kept" }],
    ["terminal", { [Symbol.dispose]: () => void ended.push("terminal") }],
    ["count", 3],
  ]);
  await disposeState(state);
  assert.deepEqual(ended, ["jobs", "terminal"]);
});
