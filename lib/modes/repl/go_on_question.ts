/**
 * The REPL's question after a turn stopped at a limit (`max_turn_steps`, `max_budget_usd`): go on
 * with a higher one (Enter or "y" takes the suggested limit, a number sets it), or stop ("n").
 * Going on raises the limit for the rest of the session and sends a prompt that continues.
 */
import { terminalText } from "../../approval/visible.ts";
import { raiseLimit } from "../../session/budget.ts";
import { type LimitOutcome, suggestedLimit, usd } from "../term/loop_stop.ts";
import type { Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";

/** What the question prints and reads through. */
export interface GoOnIO {
  print(lines: string[]): void;
  /** One line typed after `prompt`; null at end of input or Ctrl-C. */
  line(prompt: string): Promise<string | null>;
  style: Style;
}

/** The prompt a turn that goes on is sent: the model picks up where it stopped. */
const GO_ON_PROMPT = "Go on with the task from where you stopped.";

/** The limit's key, its value now and the one suggested (double). */
function limitOf(
  outcome: LimitOutcome,
): { key: "max_turn_steps" | "max_budget_usd"; now: number; next: number } {
  const key = outcome.status === "step_limit" ? "max_turn_steps" : "max_budget_usd";
  return { key, now: outcome.limit, next: suggestedLimit(outcome) };
}

/**
 * Reads an answer: "" / "y" / "yes" take `next`; "y N" or "N" take N; "n" / "no" stop. An error
 * text for anything else (and for a limit that would stop at once).
 */
export function readAnswer(
  answer: string,
  outcome: LimitOutcome,
): { go: false } | { go: true; to: number } | { error: string } {
  const { key, next } = limitOf(outcome);
  const text = answer.trim().toLowerCase();
  if (text === "n" || text === "no") return { go: false };
  const given = text.replace(/^(y|yes)\b\s*/, "").replace(/^\$/, "");
  if (given === "") return { go: true, to: next };
  const to = Number(given);
  const wholeNeeded = key === "max_turn_steps";
  if (!Number.isFinite(to) || to <= 0 || (wholeNeeded && !Number.isInteger(to))) {
    const what = wholeNeeded ? "a whole number of model requests" : "an amount in USD";
    return { error: `"${answer.trim()}" is not ${what}: answer y, n, or a new limit` };
  }
  if (outcome.status === "budget_limit" && to <= outcome.spent) {
    return {
      error: `${usd(to)} is not above the ${usd(outcome.spent)} spent: give a higher limit`,
    };
  }
  return { go: true, to };
}

/**
 * Asks whether to go on after `outcome`; on yes raises the limit in `session` and returns the
 * prompt to send, else undefined.
 */
export async function askToGoOn(
  outcome: LimitOutcome,
  session: Session,
  io: GoOnIO,
): Promise<string | undefined> {
  const { key, next } = limitOf(outcome);
  const shown = key === "max_budget_usd" ? usd(next) : String(next);
  while (true) {
    const answer = await io.line(
      `Go on with a higher limit? [Y/n, or a new ${key}; Enter: ${shown}] `,
    );
    const read = answer === null ? { go: false as const } : readAnswer(answer, outcome);
    if ("error" in read) {
      io.print([io.style.red(terminalText(read.error))]);
      continue;
    }
    if (!read.go) {
      io.print([io.style.dim(`Stopped; ${key} stays ${limitOf(outcome).now}`)]);
      return undefined;
    }
    raiseLimit(session.config, key, read.to);
    const value = key === "max_budget_usd" ? usd(read.to) : String(read.to);
    io.print([io.style.dim(`${key} is now ${value} for this session; going on`)]);
    return GO_ON_PROMPT;
  }
}
