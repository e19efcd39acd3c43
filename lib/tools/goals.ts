/**
 * The session's goal: one objective with a status and an optional budget, kept in
 * `ToolContext.state`. What every session loads; the tools' work is in `goals_run.ts`.
 */
import * as z from "zod";
import type { ToolContext } from "./capability.ts";

export const GOAL_STATE_KEY = "goal";
/** The token total when the goal's tokens were last counted (not saved). */
export const GOAL_SEEN_KEY = "goal.tokens_seen";

/** Units of a budget (Kimi's SetGoalBudget); Codex's token_budget is tokens. */
export const BUDGET_UNITS = [
  "tokens",
  "turns",
  "milliseconds",
  "seconds",
  "minutes",
  "hours",
] as const;
export type BudgetUnit = typeof BUDGET_UNITS[number];

/** The stored goal. */
export const goalSchema = z.object({
  objective: z.string(),
  status: z.enum(["active", "complete", "blocked", "paused"]),
  completionCriterion: z.string().optional(),
  budget: z.object({ value: z.number().positive(), unit: z.enum(BUDGET_UNITS) }).optional(),
  tokensUsed: z.number().min(0),
  turnsUsed: z.number().int().min(0),
  createdAt: z.number(),
  reason: z.string().optional(),
  blockerKind: z.string().optional(),
  /** The budget reminders given. */
  reminded: z.array(z.enum(["low", "spent"])).default([]),
});
export type Goal = z.infer<typeof goalSchema>;

/** Result of every goal capability; amounts in the budget's unit ("" where there is none). */
export interface GoalOutput {
  hasGoal: boolean;
  objective: string;
  status: string;
  budget: string;
  used: string;
  remaining: string;
  tokensUsed: number;
  /** The goal as JSON, or `null`. */
  json: string;
  message: string;
}

/** The session's goal, or undefined. */
export function currentGoal(state: ToolContext["state"]): Goal | undefined {
  return state.get(GOAL_STATE_KEY) as Goal | undefined;
}

const UNIT_MS: Partial<Record<BudgetUnit, number>> = {
  milliseconds: 1,
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
};

export function usedInUnit(goal: Goal, unit: BudgetUnit, now: number): number {
  if (unit === "tokens") return goal.tokensUsed;
  if (unit === "turns") return goal.turnsUsed;
  return (now - goal.createdAt) / UNIT_MS[unit]!;
}

export function amount(value: number, unit: BudgetUnit): string {
  const shown = Number.isInteger(value) ? value : Number(value.toFixed(1));
  return `${shown} ${unit}`;
}

/** Used and budget as `/status` shows them: "1200 tokens" ("" for no budget). */
export function goalFigures(goal: Goal, now = Date.now()): { used: string; budget: string } {
  const unit = goal.budget?.unit ?? "tokens";
  const budget = goal.budget ? amount(goal.budget.value, unit) : "";
  return { used: amount(usedInUnit(goal, unit, now), unit), budget };
}

export const createInput = z.object({
  objective: z.string().trim().min(1).describe("What the goal is, complete and checkable"),
  token_budget: z.number().int().positive().optional().describe("Most tokens the goal may use"),
  completion_criterion: z.string().optional().describe("How to tell the goal is met"),
  replace: z.boolean().optional().describe("Replace a goal that is still active"),
});

export const updateInput = z.object({
  status: z.enum(["active", "complete", "blocked", "paused"]).describe("The goal's new status"),
  reason: z.string().optional().describe("What was done, or what blocks it"),
  blocker_kind: z.string().optional().describe("Kind of blocker"),
});

export const budgetInput = z.object({
  value: z.number().positive().describe("How much the goal may use"),
  unit: z.enum(BUDGET_UNITS).describe("The budget's unit"),
});

export type CreateGoalInput = z.infer<typeof createInput>;
export type UpdateGoalInput = z.infer<typeof updateInput>;
export type GoalBudgetInput = z.infer<typeof budgetInput>;
