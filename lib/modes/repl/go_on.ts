/** The REPL's hook after each turn: a turn stopped at a limit asks to go on (go_on_question.ts). */
import type { PromptOutcome, Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** What the hook needs of the REPL. */
export interface GoOnParts {
  term: { interactive: boolean };
  input: { line(prompt: string): Promise<string | null> };
  transcript: { lines(lines: string[]): void };
  style: Style;
}

/**
 * On a terminal, after a turn that stopped at `max_turn_steps` or `max_budget_usd`: the prompt
 * that goes on with a higher limit, or undefined (no limit, no terminal, or the user said no).
 */
export async function goOn(
  outcome: PromptOutcome | undefined,
  session: Session | undefined,
  p: GoOnParts,
): Promise<string | undefined> {
  if (outcome?.status !== "step_limit" && outcome?.status !== "budget_limit") return undefined;
  if (!session || !p.term.interactive) return undefined;
  const { askToGoOn } = await import("./go_on_question.ts");
  return askToGoOn(outcome, session, {
    print: (lines) => p.transcript.lines(lines),
    line: (prompt) => p.input.line(prompt),
    style: p.style,
  });
}
