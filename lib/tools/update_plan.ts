import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";

/** Key of the current plan in `ToolContext.state`. */
export const PLAN_STATE_KEY = "plan";

/** One plan step. */
export const planStep = z.object({
  step: z.string().min(1),
  status: z.enum(["pending", "in_progress", "completed"]),
});

/** A plan step and its status. */
export type PlanStep = z.infer<typeof planStep>;

/** Input of `plan.update`. */
const updatePlanInput = z.object({
  explanation: z.string().optional().describe("Why the plan changed"),
  plan: z.array(planStep).describe("The whole plan, in order"),
});

/** Result of `plan.update`. */
export interface UpdatePlanOutput {
  plan: PlanStep[];
  explanation: string | undefined;
}

/** Replaces the session's task plan; at most one step may be in progress. */
export const updatePlan = defineCapability({
  id: "plan.update",
  input: updatePlanInput,
  mutates: false,
  run(input, ctx): Promise<UpdatePlanOutput> {
    const active = input.plan.filter((s) => s.status === "in_progress");
    if (active.length > 1) {
      return Promise.reject(
        new ToolError(
          `Invalid plan: ${active.length} steps are in_progress, at most one may be`,
          "Mark finished steps completed and later steps pending",
        ),
      );
    }
    const plan = input.plan.map((s) => ({ step: s.step, status: s.status }));
    ctx.state.set(PLAN_STATE_KEY, plan);
    return Promise.resolve({ plan, explanation: input.explanation });
  },
});
