/**
 * The arena's picker on a terminal: `Apply which? [a-c] · diff X to see X's diff · none` (and
 * `continue with X` for the REPL's /arena), asked again until the answer names a choice. The end
 * of input means none.
 */
import { type Contestant, contestantNamed } from "./plan.ts";

/** What the person chose. */
export interface Choice {
  /** The contestant whose patch is applied; undefined: none. */
  label?: string;
  /** Continue that contestant's session afterwards (only with `--handoff`). */
  continue: boolean;
}

/** One answer, read. */
export type Answer =
  | { kind: "apply"; label: string }
  | { kind: "continue"; label: string }
  | { kind: "diff"; label: string }
  | { kind: "none" }
  | { kind: "unclear"; message: string };

/** The question, naming every answer it takes. */
export function pickerQuestion(contestants: Contestant[], handoff: boolean): string {
  return `Apply which? [${letters(contestants)}] · diff X to see X's diff · none` +
    (handoff ? " · continue with X" : "") + " ";
}

/** The contestants' letters: `a-c`. */
function letters(contestants: Contestant[]): string {
  return `a-${contestants.at(-1)!.label}`;
}

/** Reads one answer to the picker's question. */
export function readAnswer(text: string, contestants: Contestant[], handoff: boolean): Answer {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 || (words.length === 1 && words[0] === "none")) return { kind: "none" };
  const named = (which: string | undefined) =>
    which === undefined ? undefined : contestantNamed(which, contestants)?.label;
  const [verb, ...rest] = words;
  const target = named(rest.at(-1));
  const wanted = `Answer a letter ${letters(contestants)}, a number, diff X, none` +
    (handoff ? " or continue with X" : "");
  if (verb === "diff") {
    return target ? { kind: "diff", label: target } : { kind: "unclear", message: wanted };
  }
  if (verb === "continue" && handoff) {
    const form = rest.length === 1 || (rest.length === 2 && rest[0] === "with");
    return form && target
      ? { kind: "continue", label: target }
      : { kind: "unclear", message: wanted };
  }
  const one = words.length === 1 ? named(verb) : undefined;
  return one ? { kind: "apply", label: one } : { kind: "unclear", message: wanted };
}

/** How the picker talks to the person. */
export interface PickerIo {
  /** Asks `question`; the answer, or null at the end of input. */
  ask(question: string): Promise<string | null>;
  /** Shows the contestant's patch. */
  showDiff(label: string): Promise<void>;
  say(line: string): void;
}

/** Asks until the answer is a choice. */
export async function choose(
  contestants: Contestant[],
  opts: { handoff: boolean; io: PickerIo },
): Promise<Choice> {
  const question = pickerQuestion(contestants, opts.handoff);
  for (;;) {
    const text = await opts.io.ask(question);
    if (text === null) return { continue: false };
    const answer = readAnswer(text, contestants, opts.handoff);
    switch (answer.kind) {
      case "none":
        return { continue: false };
      case "apply":
        return { label: answer.label, continue: false };
      case "continue":
        return { label: answer.label, continue: true };
      case "diff":
        await opts.io.showDiff(answer.label);
        break;
      case "unclear":
        opts.io.say(answer.message);
    }
  }
}
