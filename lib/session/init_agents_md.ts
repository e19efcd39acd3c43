/**
 * `/init` for a session, one flow for every front end: the model studies the repository and
 * writes a first AGENTS.md in the session's working directory. The guards on the file itself
 * are lib/workspace/init_agents_md.ts's; the front end asks its questions and runs the turn.
 */
import { finishInit, type InitResult, planInit } from "../workspace/init_agents_md.ts";
import type { PromptOutcome, Session } from "./types.ts";

/** What `/init` asks of the front end. */
export interface InitIO {
  /**
   * Yes to replacing `target` (the AGENTS.md path): it `exists` before the turn, or `changed`
   * while the turn ran and the draft would go over it.
   */
  confirmReplace(target: string, when: "exists" | "changed"): Promise<boolean>;
  /** Runs one turn on `prompt`; undefined when it failed before it could start. */
  runTurn(prompt: string): Promise<PromptOutcome | undefined>;
}

/** How `/init` ended: refused in plan mode, kept on a no before any turn, or after its turn. */
export type InitRun =
  | { status: "plan_mode" }
  | { status: "kept"; target: string }
  | { status: "ran"; outcome?: PromptOutcome; result: InitResult };

/** Runs `/init` in `session`; see the module comment. */
export async function runInit(session: Session, io: InitIO): Promise<InitRun> {
  if (session.planMode) return { status: "plan_mode" };
  const plan = await planInit(session.info.cwd);
  if (plan.existing.exists && !await io.confirmReplace(plan.target, "exists")) {
    return { status: "kept", target: plan.target };
  }
  const outcome = await io.runTurn(plan.prompt);
  const result = await finishInit(plan, {
    completed: outcome?.status === "completed",
    confirmReplace: () => io.confirmReplace(plan.target, "changed"),
  });
  return { status: "ran", outcome, result };
}
