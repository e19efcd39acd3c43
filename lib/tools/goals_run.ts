/**
 * The goal tools' work (lib/tools/goals.ts), the count of the tokens a goal has used and its budget
 * reminder, loaded once a session uses a goal.
 */
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import {
  amount,
  type CreateGoalInput,
  currentGoal,
  type Goal,
  GOAL_SEEN_KEY,
  GOAL_STATE_KEY,
  type GoalBudgetInput,
  type GoalOutput,
  type UpdateGoalInput,
  usedInUnit,
} from "./goals.ts";

/**
 * Adds the tokens used since the last count to the active goal (`total` is the session's token
 * total now). The first count after a start or resume only sets the baseline.
 */
export function accountGoal(state: ToolContext["state"], total: number | undefined): void {
  if (total === undefined) return;
  const seen = state.get(GOAL_SEEN_KEY);
  state.set(GOAL_SEEN_KEY, total);
  const goal = currentGoal(state);
  if (!goal || goal.status !== "active" || typeof seen !== "number" || total < seen) return;
  goal.tokensUsed += total - seen;
}

/** How much of the budget is used, from 0; undefined without a budget. */
export function budgetFraction(goal: Goal, now = Date.now()): number | undefined {
  if (!goal.budget) return undefined;
  return usedInUnit(goal, goal.budget.unit, now) / goal.budget.value;
}

/** Starts the session's goal; refused while another is active unless `replace`. */
export function createGoal(input: CreateGoalInput, ctx: ToolContext): GoalOutput {
  const before = currentGoal(ctx.state);
  if (before?.status === "active" && !input.replace) {
    throw new ToolError(
      `A goal is already active: ${before.objective}`,
      "Finish it first: mark it complete or blocked with the goal update tool",
    );
  }
  const goal: Goal = {
    objective: input.objective,
    status: "active",
    tokensUsed: 0,
    turnsUsed: 0,
    createdAt: Date.now(),
    reminded: [],
  };
  if (input.completion_criterion) goal.completionCriterion = input.completion_criterion;
  if (input.token_budget) goal.budget = { value: input.token_budget, unit: "tokens" };
  ctx.state.set(GOAL_STATE_KEY, goal);
  ctx.state.delete(GOAL_SEEN_KEY);
  accountGoal(ctx.state, ctx.tokensUsed?.());
  return (goalOutput(goal, "Goal created."));
}

/** Returns the session's goal. */
export function getGoal(ctx: ToolContext): GoalOutput {
  accountGoal(ctx.state, ctx.tokensUsed?.());
  const goal = currentGoal(ctx.state);
  return (goalOutput(goal, goal ? "The current goal." : "There is no goal."));
}

/** Sets the goal's status. */
export function updateGoal(input: UpdateGoalInput, ctx: ToolContext): GoalOutput {
  accountGoal(ctx.state, ctx.tokensUsed?.());
  const goal = requireGoal(ctx);
  goal.status = input.status;
  if (input.reason) goal.reason = input.reason;
  if (input.blocker_kind) goal.blockerKind = input.blocker_kind;
  return (goalOutput(goal, UPDATE_MESSAGES[input.status]));
}

/** Sets the goal's budget; the reminders given so far start over. */
export function setGoalBudget(input: GoalBudgetInput, ctx: ToolContext): GoalOutput {
  accountGoal(ctx.state, ctx.tokensUsed?.());
  const goal = requireGoal(ctx);
  goal.budget = { value: input.value, unit: input.unit };
  goal.reminded = [];
  return (goalOutput(goal, `Goal budget set: ${amount(input.value, input.unit)}.`));
}

const UPDATE_MESSAGES: Record<Goal["status"], string> = {
  active: "Goal resumed.",
  complete: "Goal marked complete. Write your final message to the user now.",
  blocked: "Goal marked blocked. Tell the user what blocks it in your final message.",
  paused: "Goal paused.",
};

function requireGoal(ctx: Pick<ToolContext, "state">): Goal {
  const goal = currentGoal(ctx.state);
  if (!goal) {
    throw new ToolError("There is no goal to change", "Create a goal first with its objective");
  }
  return goal;
}

/** Our words for a goal's budget running low, for a harness without its own. */
const DEFAULT_GOAL_TEXT = 'The goal "{objective}" has used {used} of its {budget} budget ' +
  "({remaining} left). Finish the most important part now, then mark the goal complete or " +
  "blocked and tell the user where things stand.";

/**
 * The goal-budget reminder due after a call, counting the tokens used since the last one
 * (`tokens` is the session's total): once when 80% of the budget is used, once when it is spent.
 */
export function goalReminderAfterCall(
  h: { reminders: ReadonlyArray<{ when: string; text: string }> },
  state: ToolContext["state"],
  tokens: number | undefined,
): string | undefined {
  accountGoal(state, tokens);
  const goal = currentGoal(state);
  if (!goal || goal.status !== "active") return undefined;
  const used = budgetFraction(goal);
  if (used === undefined || used < 0.8) return undefined;
  const level = used >= 1 ? "spent" : "low";
  if (goal.reminded.includes(level)) return undefined;
  goal.reminded.push(level);
  const out = goalOutput(goal, "");
  const own = h.reminders.find((r) => r.when === "goal_budget")?.text;
  return (own ?? DEFAULT_GOAL_TEXT).replaceAll("{objective}", out.objective)
    .replaceAll("{used}", out.used).replaceAll("{budget}", out.budget)
    .replaceAll("{remaining}", out.remaining);
}

/** The goal the user sets (`/goal`): a new active one in place of any, or none. */
export function setUserGoal(
  state: ToolContext["state"],
  objective: string | undefined,
  tokens: number,
): void {
  if (!objective) return void state.delete(GOAL_STATE_KEY);
  const goal: Goal = {
    objective,
    status: "active",
    tokensUsed: 0,
    turnsUsed: 0,
    createdAt: Date.now(),
    reminded: [],
  };
  state.set(GOAL_STATE_KEY, goal);
  state.delete(GOAL_SEEN_KEY);
  accountGoal(state, tokens);
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

/** Counts a turn for the active goal. */
export function countGoalTurn(state: ToolContext["state"]): void {
  const goal = currentGoal(state);
  if (goal?.status === "active") goal.turnsUsed++;
}
