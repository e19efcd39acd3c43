/**
 * `plan.enter` and `plan.exit`: a harness's own plan-mode tools (Claude Code's EnterPlanMode and
 * ExitPlanMode) on the session's plan mode (`ToolContext.planMode`). Entering makes the next calls
 * read-only; exiting puts the plan before the user and ends the turn, and the user's answer (go,
 * edit or stop) comes as the next message.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import type { PlanModeControl } from "./types.ts";

/** Input of `plan.enter`: none. */
const planEnterInput = z.object({});

/** Result of `plan.enter`. */
export interface PlanEnterOutput {
  /** What the model now works under: investigate read-only, then propose a plan. */
  instructions: string;
}

/** Turns the session's plan mode on. */
export const planEnter = defineCapability({
  id: "plan.enter",
  input: planEnterInput,
  mutates: false,
  async run(_input, ctx): Promise<PlanEnterOutput> {
    return { instructions: await planModeOf(ctx).enter() };
  },
});

/** Input of `plan.exit`. */
const planExitInput = z.object({
  plan: z.string().optional().describe(
    "The plan, as a numbered list of steps; without it, the answer written before the call is it",
  ),
});

/** Result of `plan.exit`. */
export interface PlanExitOutput {
  /** The plan as given; null when the answer is the plan. */
  plan: string | null;
}

/** Puts the plan before the user, who approves it, asks for changes, or stops. */
export const planExit = defineCapability({
  id: "plan.exit",
  input: planExitInput,
  mutates: false,
  run(input, ctx): Promise<PlanExitOutput> {
    const planMode = planModeOf(ctx);
    if (!planMode.on) {
      return Promise.reject(
        new ToolError(
          "Plan mode is not on, so there is no plan to put before the user",
          "Carry on with the task",
        ),
      );
    }
    const plan = input.plan?.trim() || undefined;
    planMode.propose(plan);
    return Promise.resolve({ plan: plan ?? null });
  },
});

function planModeOf(ctx: ToolContext): PlanModeControl {
  if (ctx.planMode) return ctx.planMode;
  throw new ToolError(
    "Plan mode is not available here: no one can approve a plan in this session",
    "Carry on with the task without a plan-mode phase",
  );
}
