/**
 * Representative outputs of the goal and schedule capabilities (lib/tools/goals.ts,
 * lib/tools/schedule.ts), spread into `SAMPLE_OUTPUTS` (`_sample_outputs.ts`).
 */
import type { GoalOutput } from "../tools/goals.ts";
import type { ScheduleOutput } from "../tools/schedule.ts";

const GOAL: GoalOutput = {
  hasGoal: true,
  objective: "Make the test suite pass",
  status: "active",
  budget: "50000 tokens",
  used: "12000 tokens",
  remaining: "38000 tokens",
  tokensUsed: 12000,
  json: '{\n  "objective": "Make the test suite pass",\n  "status": "active"\n}',
  message: "Goal created.",
};

const TIMER: ScheduleOutput = {
  id: "3fa9c2d1",
  dueAt: "2026-01-01 09:30:00",
  delaySeconds: 270,
  cron: "30 9 * * *",
  recurring: true,
  list: "id: 3fa9c2d1\nkind: cron\ncron: 30 9 * * *\nrecurring: true\nnext: 2026-01-01 09:30:00\n" +
    "prompt: check the deploy",
  count: 1,
  message: "Scheduled cron job 3fa9c2d1 (recurring).",
};

/** Per capability id, as in `SAMPLE_OUTPUTS`. */
export const GOAL_SAMPLE_OUTPUTS: Readonly<Record<string, readonly object[]>> = {
  "goal.create": [GOAL],
  "goal.get": [GOAL, { ...GOAL, hasGoal: false, objective: "", status: "", json: "null" }],
  "goal.update": [{ ...GOAL, status: "complete", message: "Goal marked complete." }],
  "goal.set_budget": [{ ...GOAL, message: "Goal budget set: 50000 tokens." }],
  "schedule.wakeup": [{ ...TIMER, cron: "", recurring: false, message: "Wake-up scheduled." }],
  "schedule.cron_create": [TIMER],
  "schedule.cron_delete": [{ ...TIMER, message: "Deleted cron job 3fa9c2d1." }],
  "schedule.cron_list": [{ ...TIMER, id: "", dueAt: "", message: "1 scheduled job." }],
};
