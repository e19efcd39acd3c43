import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { PLAN_STATE_KEY, updatePlan } from "./update_plan.ts";
import { tempWorkspace } from "./_test_workspace.ts";

Deno.test("updatePlan() stores the plan in the session state and returns it", async () => {
  await using ws = await tempWorkspace();
  const plan = [
    { step: "Read the code", status: "completed" as const },
    { step: "Fix the bug", status: "in_progress" as const },
    { step: "Run tests", status: "pending" as const },
  ];
  const out = await updatePlan.run({ plan, explanation: "Started fixing" }, ws.ctx);
  assert.deepEqual(out, { plan, explanation: "Started fixing" });
  assert.deepEqual(ws.ctx.state.get(PLAN_STATE_KEY), plan);
});

Deno.test("updatePlan() rejects more than one in_progress step", async () => {
  await using ws = await tempWorkspace();
  const plan = [
    { step: "a", status: "in_progress" as const },
    { step: "b", status: "in_progress" as const },
  ];
  await assert.rejects(
    () => updatePlan.run({ plan }, ws.ctx),
    (err) => err instanceof ToolError && /2 steps are in_progress/.test(err.message),
  );
  assert.equal(ws.ctx.state.has(PLAN_STATE_KEY), false);
});

Deno.test("updatePlan input schema rejects an unknown status", () => {
  const parsed = updatePlan.input.safeParse({ plan: [{ step: "a", status: "done" }] });
  assert.equal(parsed.success, false);
});
