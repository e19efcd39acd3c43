/**
 * How the front ends word a turn the loop guard stopped (the repeated call, and what to try) or a
 * limit stopped (`max_turn_steps`, `max_budget_usd`: the limit, the spend, how to raise it).
 */
import type { RepeatedCall, TurnOutcome } from "../../loop/events.ts";

/** A repeated call as one line: the tool and its arguments, cut to a readable length. */
export function describeCall(call: Pick<RepeatedCall, "name" | "args">): string {
  const args = call.args === undefined ? "" : ` ${JSON.stringify(call.args)}`;
  const text = `${call.name}${args}`;
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** Why the loop guard stopped the turn, and what to try: another harness before a bigger model. */
export function repeatedCallFailure(
  outcome: Extract<TurnOutcome, { status: "repeated_call" }>,
  flag: "--harness" | "/harness",
): { message: string; hint: string } {
  const { words: { message, detail, setting }, harnesses = [] } = outcome;
  const others = harnesses.length
    ? `Try another harness before a bigger model: ${
      harnesses.map((id) => `${flag} ${id}`).join(", ")
    }`
    : `Try another harness (${flag}) or a bigger model`;
  return { message, hint: `${detail ? `${detail}. ` : ""}${others}; ${setting}` };
}

/** A turn that ended at one of the user's limits. */
export type LimitOutcome = Extract<TurnOutcome, { status: "step_limit" | "budget_limit" }>;

/** What stopped the turn, the fix, and the key that stopped it (`--json`'s `reason`). */
export interface LimitWords {
  message: string;
  hint: string;
  reason: "max_turns" | "max_budget_usd";
}

/** USD as people read it: two decimals, more for amounts under a cent. */
export function usd(amount: number): string {
  return `$${amount >= 0.01 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`;
}

/** The higher limit to offer: twice the one reached (twice the spend when that is more). */
export function suggestedLimit(outcome: LimitOutcome): number {
  if (outcome.status === "step_limit") return outcome.limit * 2;
  return Math.ceil(Math.max(outcome.limit, outcome.spent) * 200 - 1e-9) / 100;
}

/** `outcome` in words; `raise` is how the front end takes a higher limit (flags by default). */
export function limitWords(
  outcome: LimitOutcome,
  raise?: (key: string, to: string) => string,
): LimitWords {
  if (outcome.status === "step_limit") {
    const to = String(suggestedLimit(outcome));
    return {
      message: `Stopped at the turn limit (max_turn_steps = ${outcome.limit}): the model made ` +
        `${outcome.limit} requests without finishing the task`,
      hint: `To let it continue, raise max_turn_steps (${
        raise?.("max_turn_steps", to) ?? `--max-turns ${to} or -c max_turn_steps=${to}`
      })`,
      reason: "max_turns",
    };
  }
  const to = String(suggestedLimit(outcome));
  return {
    message: `Stopped at the spending limit (max_budget_usd = ${outcome.limit}): the session ` +
      `has spent ${usd(outcome.spent)}`,
    hint: `To let it continue, raise max_budget_usd (${
      raise?.("max_budget_usd", to) ?? `--max-budget-usd ${to} or -c max_budget_usd=${to}`
    })`,
    reason: "max_budget_usd",
  };
}
