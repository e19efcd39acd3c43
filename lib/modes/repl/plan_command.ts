/**
 * `/plan`: plan mode in the REPL. While it is on, turns only read and end with a plan (numbered),
 * and the user answers go (leave plan mode and carry the plan out), edit (say what to change:
 * another planning turn) or stop (stay in plan mode, send nothing).
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** The input prompt while plan mode is on. */
export const PLAN_PROMPT = "plan › ";

/** What "go" sends: the plan is in the history, so this is enough to start on it. */
export const PLAN_APPROVED = "The plan is approved: carry it out.";

/** What `/plan` uses of the REPL's command context. */
export interface PlanContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
}

/** `/plan`, as the command list takes it. */
export const PLAN_COMMAND = {
  name: "plan",
  summary: "plan mode: turns only read and end with a plan to approve; /plan again leaves it",
  run: plan,
};

async function plan(arg: string, ctx: PlanContext): Promise<void> {
  const session = ctx.session();
  const wanted = arg === "" ? !session.planMode : { on: true, off: false }[arg.toLowerCase()];
  if (wanted === undefined) {
    throw Object.assign(new Error(`Unknown /plan argument "${terminalText(arg)}"`), {
      hint: "Use /plan to turn plan mode on or off (or /plan on, /plan off), then type the task",
    });
  }
  await session.configure({ planMode: wanted });
  const s = terminalSafe(session.status());
  ctx.print([
    wanted
      ? "Plan mode on: the next turns only read (commands run in a read-only sandbox, edits " +
        "are refused) and end with a plan for you to approve. /plan again leaves it"
      : `Plan mode off: sandbox ${s.sandboxMode} and approval ${s.approval} again`,
  ]);
}

/** What `reviewPlan()` works with. */
export interface PlanReview {
  session: Session;
  print(lines: string[]): void;
  /** Reads one answer line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  style: Style;
  /** In plain mode (plain.ts) the choices are numbered: 1 go, 2 edit, 3 stop. */
  term?: { plainMode?: boolean };
}

/** The choices as plain mode numbers them. */
const NUMBERED = ["go", "edit", "stop"];

/**
 * After a turn in plan mode: shows the plan it proposed and asks go, edit or stop. Returns the
 * next prompt to send (the approval, or the change asked for), or undefined to send nothing.
 */
export async function reviewPlan(opts: PlanReview): Promise<string | undefined> {
  const { session, print, style } = opts;
  if (!session.planMode) return undefined;
  const proposed = session.proposedPlan();
  if (!proposed) return undefined;
  print(planLines(proposed.steps, style));
  const numbered = opts.term?.plainMode === true;
  if (numbered) print(["  1) go: carry it out", "  2) edit: say what to change", "  3) stop"]);
  while (true) {
    const prompt = numbered ? "Answer with a number › " : "go, edit or stop? [g/e/s] › ";
    const line = (await opts.ask(prompt))?.trim() ?? "";
    const [word, ...rest] = line.split(/\s+/);
    const choice = (numbered && NUMBERED[Number(word) - 1]) || word.toLowerCase();
    if (["g", "go", "y", "yes"].includes(choice)) {
      session.setPlanMode(false);
      print([style.dim("Plan mode off: carrying out the plan")]);
      return PLAN_APPROVED;
    }
    if (["e", "edit"].includes(choice)) {
      const change = rest.join(" ") || (await opts.ask("what should change? › "))?.trim();
      if (change) return change;
    }
    if (["", "s", "stop", "e", "edit"].includes(choice)) {
      print([style.dim("Still in plan mode: type to plan further, /plan to leave it")]);
      return undefined;
    }
    print([style.dim("Answer g (go: carry it out), e (edit: say what to change) or s (stop)")]);
  }
}

/** The plan as a numbered list, its text made inert. */
function planLines(steps: readonly string[], style: Style): string[] {
  const width = String(steps.length).length;
  return [
    style.bold("Plan:"),
    ...steps.map((step, i) =>
      `  ${String(i + 1).padStart(width)}. ${terminalText(step).replaceAll("\n", " ")}`
    ),
  ];
}
