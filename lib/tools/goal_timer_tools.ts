/**
 * The goal tools (goals.ts) and timer tools (schedule.ts) as capabilities: their schemas here,
 * their work in `goals_run.ts` and `schedule_run.ts`, loaded on first use.
 */
import * as z from "zod";
import { defineCapability, type ToolContext } from "./capability.ts";
import { budgetInput, createInput, type GoalOutput, updateInput } from "./goals.ts";
import { cronInput, type ScheduleOutput, wakeupInput } from "./schedule.ts";

const goals = () => import("./goals_run.ts");
const timers = () => import("./schedule_run.ts");

/** A capability that changes no file, whose work is loaded when it first runs. */
function lazy<S extends z.ZodType, O>(
  id: string,
  input: S,
  run: (input: z.infer<S>, ctx: ToolContext) => Promise<O>,
) {
  return defineCapability({ id, input, mutates: false, run });
}

export const goalCreate = lazy(
  "goal.create",
  createInput,
  async (i, ctx): Promise<GoalOutput> => (await goals()).createGoal(i, ctx),
);
export const goalGet = lazy(
  "goal.get",
  z.object({}),
  async (_i, ctx): Promise<GoalOutput> => (await goals()).getGoal(ctx),
);
export const goalUpdate = lazy(
  "goal.update",
  updateInput,
  async (i, ctx): Promise<GoalOutput> => (await goals()).updateGoal(i, ctx),
);
export const goalSetBudget = lazy(
  "goal.set_budget",
  budgetInput,
  async (i, ctx): Promise<GoalOutput> => (await goals()).setGoalBudget(i, ctx),
);
export const scheduleWakeup = lazy(
  "schedule.wakeup",
  wakeupInput,
  async (i, ctx): Promise<ScheduleOutput> => (await timers()).wakeup(i, ctx),
);
export const scheduleCronCreate = lazy(
  "schedule.cron_create",
  cronInput,
  async (i, ctx): Promise<ScheduleOutput> => (await timers()).cronCreate(i, ctx),
);
export const scheduleCronDelete = lazy(
  "schedule.cron_delete",
  z.object({ id: z.string().min(1).describe("The id the job was created with") }),
  async (i, ctx): Promise<ScheduleOutput> => (await timers()).cronDelete(i.id, ctx),
);
export const scheduleCronList = lazy(
  "schedule.cron_list",
  z.object({}),
  async (_i, ctx): Promise<ScheduleOutput> => (await timers()).cronList(ctx),
);

const GOAL: GoalOutput = {
  hasGoal: true,
  objective: "Make the tests pass",
  status: "active",
  budget: "50000 tokens",
  used: "12000 tokens",
  remaining: "38000 tokens",
  tokensUsed: 12000,
  json: "{}",
  message: "Goal created.",
};
const TIMER: ScheduleOutput = {
  id: "3fa9c2d1",
  dueAt: "2026-01-01 09:30:00",
  delaySeconds: 270,
  cron: "30 9 * * *",
  recurring: true,
  list: "id: 3fa9c2d1",
  count: 1,
  message: "Scheduled cron job 3fa9c2d1.",
};

/** Sample outputs for `SAMPLE_OUTPUTS` (lib/harness/_sample_outputs.ts). */
export const GOAL_TIMER_SAMPLES: Readonly<Record<string, readonly object[]>> = {
  "goal.create": [GOAL],
  "goal.get": [GOAL],
  "goal.update": [GOAL],
  "goal.set_budget": [GOAL],
  "schedule.wakeup": [TIMER],
  "schedule.cron_create": [TIMER],
  "schedule.cron_delete": [TIMER],
  "schedule.cron_list": [TIMER],
};
