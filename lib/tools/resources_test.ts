import assert from "node:assert/strict";
import { resourceKey, Resources, resourcesOf } from "./resources.ts";

const JOBS = resourceKey<{ [Symbol.asyncDispose](): Promise<void> }>("jobs");
const TERMINAL = resourceKey<{ [Symbol.dispose](): void }>("terminal");
const PROBE = resourceKey<boolean>("probe");

Deno.test("Resources disposal ends every disposable value in insertion order and keeps the rest", async () => {
  const ended: string[] = [];
  const resources = new Resources();
  resources.set(JOBS, { [Symbol.asyncDispose]: () => Promise.resolve(void ended.push("jobs")) });
  resources.set(PROBE, true);
  resources.set(TERMINAL, { [Symbol.dispose]: () => void ended.push("terminal") });
  await resources[Symbol.asyncDispose]();
  assert.deepEqual(ended, ["jobs", "terminal"]);
  assert.equal(resources.get(JOBS), undefined);
  assert.equal(resources.get(PROBE), true);
});

Deno.test("Resources disposal goes on past a failing value and throws its error after", async () => {
  const ended: string[] = [];
  const resources = new Resources();
  resources.set(JOBS, { [Symbol.asyncDispose]: () => Promise.reject(new Error("jobs stuck")) });
  resources.set(TERMINAL, { [Symbol.dispose]: () => void ended.push("terminal") });
  await assert.rejects(() => resources[Symbol.asyncDispose](), /jobs stuck/);
  assert.deepEqual(ended, ["terminal"]);
});

Deno.test("resourcesOf() uses ctx.resources, else keeps them in ctx.state under their names", () => {
  const own = new Resources();
  const state = new Map<string, unknown>();
  resourcesOf({ state, resources: own }).set(PROBE, false);
  assert.equal(own.get(PROBE), false);
  assert.equal(state.size, 0);
  resourcesOf({ state }).set(PROBE, true);
  assert.equal(state.get("probe"), true);
  assert.equal(resourcesOf({ state }).get(PROBE), true);
});
