import assert from "node:assert/strict";
import type { ToolContext } from "./capability.ts";
import { GOAL_STATE_KEY } from "./goals.ts";
import { goalCreate, goalGet, goalSetBudget, goalUpdate } from "./goal_timer_tools.ts";
import { restoreState, snapshotState } from "./session_state.ts";
import { goalReminderAfterCall } from "./goals_run.ts";
import { ToolError } from "../errors.ts";

/** A context with only what the goal tools use: the state and a token counter we move. */
function goalContext() {
  const meter = { total: 0 };
  const ctx = { state: new Map<string, unknown>(), tokensUsed: () => meter.total };
  return { ctx: ctx as unknown as ToolContext, meter };
}

const OWN = {
  reminders: [{ when: "goal_budget" as const, text: "[{objective}: {used}/{budget}]" }],
};

Deno.test("a goal counts the tokens used after it was created and reports its budget", async () => {
  const { ctx, meter } = goalContext();
  meter.total = 5000;
  const created = await goalCreate.run(
    { objective: "Make the tests pass", token_budget: 1000 },
    ctx,
  );
  assert.equal(created.status, "active");
  assert.equal(created.budget, "1000 tokens");
  assert.equal(created.used, "0 tokens", "tokens before the goal do not count");
  meter.total = 5400;
  const got = await goalGet.run({}, ctx);
  assert.equal(got.used, "400 tokens");
  assert.equal(got.remaining, "600 tokens");
  assert.equal(JSON.parse(got.json).objective, "Make the tests pass");
});

Deno.test("the budget reminder comes at 80% and once spent, each once, in the harness's words", async () => {
  const { ctx, meter } = goalContext();
  await goalCreate.run({ objective: "ship", token_budget: 100 }, ctx);
  meter.total = 50;
  assert.equal(goalReminderAfterCall(OWN, ctx.state, meter.total), undefined);
  meter.total = 85;
  assert.equal(goalReminderAfterCall(OWN, ctx.state, meter.total), "[ship: 85 tokens/100 tokens]");
  meter.total = 95;
  assert.equal(goalReminderAfterCall(OWN, ctx.state, meter.total), undefined, "said once");
  meter.total = 130;
  assert.equal(goalReminderAfterCall(OWN, ctx.state, meter.total), "[ship: 130 tokens/100 tokens]");
  assert.equal(goalReminderAfterCall(OWN, ctx.state, 200), undefined);
  const ours = goalReminderAfterCall({ reminders: [] }, ctx.state, 200);
  assert.equal(ours, undefined, "a spent goal is not reminded again");
});

Deno.test("a harness without its own text gets ours; a finished goal gets none", async () => {
  const { ctx, meter } = goalContext();
  await goalCreate.run({ objective: "ship", token_budget: 10 }, ctx);
  meter.total = 20;
  assert.match(goalReminderAfterCall({ reminders: [] }, ctx.state, 20)!, /"ship" has used 20/);
  await goalCreate.run({ objective: "next", token_budget: 10, replace: true }, ctx);
  await goalUpdate.run({ status: "complete", reason: "done" }, ctx);
  meter.total = 100;
  assert.equal(goalReminderAfterCall({ reminders: [] }, ctx.state, 100), undefined);
});

Deno.test("a second goal is refused while one is active; update and budget need a goal", async () => {
  const { ctx } = goalContext();
  await assert.rejects(goalUpdate.run({ status: "complete" }, ctx), /no goal to change/);
  await assert.rejects(goalSetBudget.run({ value: 3, unit: "turns" }, ctx), ToolError);
  await goalCreate.run({ objective: "one" }, ctx);
  await assert.rejects(goalCreate.run({ objective: "two" }, ctx), /already active: one/);
  const blocked = await goalUpdate.run(
    { status: "blocked", reason: "no key", blocker_kind: "authority" },
    ctx,
  );
  assert.match(blocked.message, /blocked/);
  assert.equal(JSON.parse(blocked.json).blockerKind, "authority");
  assert.equal((await goalCreate.run({ objective: "two" }, ctx)).objective, "two");
});

Deno.test("a time budget counts wall time and turns count turns", async () => {
  const { ctx } = goalContext();
  await goalCreate.run({ objective: "wait" }, ctx);
  const set = await goalSetBudget.run({ value: 2, unit: "hours" }, ctx);
  assert.equal(set.message, "Goal budget set: 2 hours.");
  assert.equal(set.budget, "2 hours");
  const turns = await goalSetBudget.run({ value: 3, unit: "turns" }, ctx);
  assert.equal(turns.used, "0 turns");
});

Deno.test("the goal is saved with the session state and restored; a forged one is dropped", async () => {
  const { ctx, meter } = goalContext();
  await goalCreate.run({ objective: "keep me", token_budget: 500 }, ctx);
  meter.total = 120;
  await goalGet.run({}, ctx);
  const restored = restoreState(JSON.parse(JSON.stringify(snapshotState(ctx.state))));
  const goal = restored.get(GOAL_STATE_KEY) as { objective: string; tokensUsed: number };
  assert.equal(goal.objective, "keep me");
  assert.equal(goal.tokensUsed, 120);
  const notes: string[] = [];
  const forged = { version: 1, values: { [GOAL_STATE_KEY]: { objective: 7 } } };
  assert.equal(restoreState(forged, { note: (m) => notes.push(m) }).has(GOAL_STATE_KEY), false);
  assert.match(notes[0], /Dropped the saved tool state "goal"/);
});
