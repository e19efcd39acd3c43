/**
 * The goal tools (lib/tools/goals.ts) and the timer tools (lib/tools/schedule.ts) as capabilities:
 * their schemas here, their work in `goals_run.ts` and `schedule_run.ts`, loaded on first use, so
 * that a session that never uses a goal or a timer does not load them.
 */
import * as z from "zod";
import { defineCapability } from "./capability.ts";
import { budgetInput, createInput, type GoalOutput, updateInput } from "./goals.ts";
import { cronInput, type ScheduleOutput, wakeupInput } from "./schedule.ts";

const goals = () => import("./goals_run.ts");
const timers = () => import("./schedule_run.ts");

/** Starts the session's goal; refused while another is active unless `replace`. */
export const goalCreate = defineCapability({
  id: "goal.create",
  input: createInput,
  mutates: false,
  run: async (input, ctx): Promise<GoalOutput> => (await goals()).createGoal(input, ctx),
});

/** Returns the session's goal. */
export const goalGet = defineCapability({
  id: "goal.get",
  input: z.object({}),
  mutates: false,
  run: async (_input, ctx): Promise<GoalOutput> => (await goals()).getGoal(ctx),
});

/** Sets the goal's status. */
export const goalUpdate = defineCapability({
  id: "goal.update",
  input: updateInput,
  mutates: false,
  run: async (input, ctx): Promise<GoalOutput> => (await goals()).updateGoal(input, ctx),
});

/** Sets the goal's budget; the reminders given so far start over. */
export const goalSetBudget = defineCapability({
  id: "goal.set_budget",
  input: budgetInput,
  mutates: false,
  run: async (input, ctx): Promise<GoalOutput> => (await goals()).setGoalBudget(input, ctx),
});

/** Schedules one prompt after a delay (or, with `stop`, cancels the pending wake-ups). */
export const scheduleWakeup = defineCapability({
  id: "schedule.wakeup",
  input: wakeupInput,
  mutates: false,
  run: async (input, ctx): Promise<ScheduleOutput> => (await timers()).wakeup(input, ctx),
});

/** Schedules a prompt by a cron expression. */
export const scheduleCronCreate = defineCapability({
  id: "schedule.cron_create",
  input: cronInput,
  mutates: false,
  run: async (input, ctx): Promise<ScheduleOutput> => (await timers()).cronCreate(input, ctx),
});

/** Deletes a timer by id. */
export const scheduleCronDelete = defineCapability({
  id: "schedule.cron_delete",
  input: z.object({ id: z.string().min(1).describe("The id the job was created with") }),
  mutates: false,
  run: async (input, ctx): Promise<ScheduleOutput> => (await timers()).cronDelete(input.id, ctx),
});

/** Lists the session's timers. */
export const scheduleCronList = defineCapability({
  id: "schedule.cron_list",
  input: z.object({}),
  mutates: false,
  run: async (_input, ctx): Promise<ScheduleOutput> => (await timers()).cronList(ctx),
});
