/**
 * `/goal`: the session's goal, set by the user as Qwen Code's /goal sets it. `/goal OBJECTIVE`
 * starts one (in place of any), `/goal clear` drops it, `/goal` shows it. The model reads and
 * reports on it with the harness's goal tools (lib/tools/goals.ts).
 */
import type { Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** What `/goal` uses of the REPL's command context. */
export interface GoalContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
}

/** `/goal`, as the command list takes it. */
export const GOAL_COMMAND = {
  name: "goal",
  summary: "the session's goal: /goal OBJECTIVE sets it, /goal clear drops it",
  run: goal,
};

async function goal(arg: string, ctx: GoalContext): Promise<void> {
  const session = ctx.session();
  const objective = arg.trim();
  if (objective === "") return ctx.print([goalLine(session, ctx.style)]);
  if (!session.setGoal) return ctx.print([ctx.style.dim("This session cannot hold a goal.")]);
  await session.setGoal(objective === "clear" ? undefined : objective);
  ctx.print([objective === "clear" ? "Goal cleared." : goalLine(session, ctx.style)]);
}

function goalLine(session: Session, style: Style): string {
  const g = session.status().goal;
  if (!g) return style.dim("No goal. Set one with /goal OBJECTIVE.");
  const budget = g.budget ? ` of ${g.budget}` : "";
  return `Goal (${g.status}, ${g.used}${budget}): ${g.objective}`;
}
