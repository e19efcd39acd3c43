/** How the front ends word a turn the loop guard stopped: the repeated call, and what to try. */
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
