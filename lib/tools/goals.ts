/**
 * The session's goal (Codex `create_goal`/`get_goal`/`update_goal`, Qwen `get_goal`/`update_goal`,
 * Kimi `CreateGoal`/`GetGoal`/`SetGoalBudget`/`UpdateGoal`): one objective with a status and an
 * optional budget, kept in `ToolContext.state` (saved with the session, restored on resume). This
 * module holds what every session loads (the state, its figures, the tools' schemas); the tools'
 * work, the token count and the budget reminder are in `goals_run.ts`, loaded once a goal is used.
 */
import * as z from "zod";
import type { ToolContext } from "./capability.ts";

/** Key of the session's goal in `ToolContext.state` (saved; `session_state.ts`). */
export const GOAL_STATE_KEY = "goal";
/** The session's token total when the goal's tokens were last counted (not saved). */
export const GOAL_SEEN_KEY = "goal.tokens_seen";

/** Units a budget can be given in (Kimi's SetGoalBudget); Codex's token_budget is tokens. */
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
  /** Epoch milliseconds. */
  createdAt: z.number(),
  reason: z.string().optional(),
  blockerKind: z.string().optional(),
  /** Which budget reminders were given: "low" once, then "spent" once. */
  reminded: z.array(z.enum(["low", "spent"])).default([]),
});
export type Goal = z.infer<typeof goalSchema>;

/** Result of every goal capability. */
export interface GoalOutput {
  hasGoal: boolean;
  objective: string;
  /** "" when there is no goal. */
  status: string;
  /** "50000 tokens", or "" without a budget. */
  budget: string;
  /** What the goal has used, in the budget's unit (tokens without a budget). */
  used: string;
  /** What is left of the budget, or "". */
  remaining: string;
  tokensUsed: number;
  /** The goal as JSON, or `null`. */
  json: string;
  /** One sentence on what the call did, in our words. */
  message: string;
}

/** The session's goal, or undefined. */
export function currentGoal(state: ToolContext["state"]): Goal | undefined {
  return state.get(GOAL_STATE_KEY) as Goal | undefined;
}

/** Counts one more turn for the active goal (a "turns" budget). */
export function countGoalTurn(state: ToolContext["state"]): void {
  const goal = currentGoal(state);
  if (goal?.status === "active") goal.turnsUsed++;
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

/** The goal's figures as the result templates and `/status` show them. */
export function goalOutput(goal: Goal | undefined, message: string, now = Date.now()): GoalOutput {
  if (!goal) {
    return {
      hasGoal: false,
      objective: "",
      status: "",
      budget: "",
      used: "",
      remaining: "",
      tokensUsed: 0,
      json: "null",
      message,
    };
  }
  const unit = goal.budget?.unit ?? "tokens";
  const used = usedInUnit(goal, unit, now);
  const left = goal.budget ? Math.max(0, goal.budget.value - used) : undefined;
  const { reminded: _r, ...shown } = goal;
  return {
    hasGoal: true,
    objective: goal.objective,
    status: goal.status,
    budget: goal.budget ? amount(goal.budget.value, unit) : "",
    used: amount(used, unit),
    remaining: left === undefined ? "" : amount(left, unit),
    tokensUsed: goal.tokensUsed,
    json: JSON.stringify(shown, null, 2),
    message,
  };
}

export const createInput = z.object({
  objective: z.string().trim().min(1).describe("What the goal is, complete and checkable"),
  token_budget: z.number().int().positive().optional().describe("Most tokens the goal may use"),
  completion_criterion: z.string().optional().describe("How to tell the goal is met"),
  replace: z.boolean().optional().describe("Replace a goal that is still active"),
});

export const updateInput = z.object({
  status: z.enum(["active", "complete", "blocked", "paused"]).describe("The goal's new status"),
  reason: z.string().optional().describe("Why: what was done, or what blocks it"),
  blocker_kind: z.string().optional().describe("What kind of blocker (Qwen's blockerKind)"),
});

export const budgetInput = z.object({
  value: z.number().positive().describe("How much the goal may use"),
  unit: z.enum(BUDGET_UNITS).describe("The budget's unit"),
});

export type CreateGoalInput = z.infer<typeof createInput>;
export type UpdateGoalInput = z.infer<typeof updateInput>;
export type GoalBudgetInput = z.infer<typeof budgetInput>;
