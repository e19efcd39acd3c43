import assert from "node:assert/strict";
import { disposeState } from "./_dispose_state.ts";
import { resourceKey, Resources } from "../tools/resources.ts";

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

Deno.test("disposeState() ends the resources, then what is left in state, past a failure", async () => {
  const ended: string[] = [];
  const resources = new Resources();
  resources.set(resourceKey<AsyncDisposable>("jobs"), {
    [Symbol.asyncDispose]: () => Promise.reject(new Error("jobs stuck")),
  });
  resources.set(resourceKey<Disposable>("terminal"), {
    [Symbol.dispose]: () => void ended.push("terminal"),
  });
  const state = new Map<string, unknown>([
    ["todos", []],
    ["legacy", { [Symbol.dispose]: () => void ended.push("legacy") }],
  ]);
  await assert.rejects(() => disposeState(state, resources), /jobs stuck/);
  assert.deepEqual(ended, ["terminal", "legacy"]);
  assert.deepEqual([...state.keys()], ["todos"]);
});
