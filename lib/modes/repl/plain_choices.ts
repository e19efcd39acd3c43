/**
 * Plain mode's choices (plain.ts): the options as a numbered list, answered by typing a number
 * and Enter, the way a screen reader reads and a dumb terminal shows them. Used for approval
 * questions, the trust question and pickers (`/model`); `/resume` and the model's questions are
 * numbered in every mode already.
 */
import { APPROVAL_OPTIONS } from "../../session/tool_views/approval_view.ts";
import type { PickOptions } from "./list_picker.ts";

/** Where a numbered choice is shown and read. */
export interface NumberedIO {
  print(lines: string[]): void;
  /** One line typed after `prompt`; null at end of input or when the question is withdrawn. */
  read(prompt: string): Promise<string | null>;
}

/** One typed choice: the option's index and what followed its number. */
interface Chosen {
  index: number;
  rest: string;
}

/**
 * Shows `labels` numbered from 1 and reads a number; anything else is asked again, saying what
 * to type. Undefined for an empty line, at end of input, or when withdrawn. `rest` lets text
 * follow the number of the option it names (a note after "no"); `other` accepts other answers
 * as they are typed (the letters of the approval line).
 */
async function chooseNumber(
  io: NumberedIO,
  opts: { labels: string[]; prompt: string; rest?: number; other?: RegExp },
): Promise<Chosen | string | undefined> {
  const count = opts.labels.length;
  io.print(opts.labels.map((label, i) => `  ${i + 1}) ${label}`));
  while (true) {
    const typed = (await io.read(opts.prompt))?.trim();
    if (!typed) return undefined;
    const match = typed.match(/^(\d+)(?:\s*[:,.)-]?\s+(.*))?$/s);
    const index = match ? Number(match[1]) - 1 : -1;
    const rest = match?.[2]?.trim() ?? "";
    if (index >= 0 && index < count && (!rest || index === opts.rest)) return { index, rest };
    if (opts.other?.test(typed)) return typed;
    const note = opts.rest === undefined ? "" : ` (${opts.rest + 1} may be followed by a note)`;
    io.print([`Type a number from 1 to ${count} and Enter${note}; Enter alone cancels`]);
  }
}

/** The prompt of an approval question in plain mode. */
const APPROVAL_PROMPT = "Answer with a number › ";

/**
 * An approval question's answer, as the answer line would have it typed (`y`, `a`, `n NOTE`),
 * for `parseAnswer()`: the options numbered, the last one (no) taking a note after its number.
 * An empty line or end of input is null (a no).
 */
export async function numberedApproval(io: NumberedIO): Promise<string | null> {
  const chosen = await chooseNumber(io, {
    labels: APPROVAL_OPTIONS.map((o) => o.keyLabel),
    prompt: APPROVAL_PROMPT,
    rest: APPROVAL_OPTIONS.findIndex((o) => o.answer === "deny"),
    other: /^[yan](\s|$)/i,
  });
  if (chosen === undefined) return null;
  if (typeof chosen === "string") return chosen;
  return `${APPROVAL_OPTIONS[chosen.index].key} ${chosen.rest}`.trim();
}

/** A yes-or-no question as two numbered options; no unless 1 (or yes) is chosen. */
export async function numberedYes(
  io: NumberedIO,
  opts: { question: string; yes: string; no: string },
): Promise<boolean> {
  io.print([opts.question]);
  const chosen = await chooseNumber(io, {
    labels: [opts.yes, opts.no],
    prompt: "Answer 1 or 2 › ",
    other: /^(y|yes|n|no)$/i,
  });
  if (typeof chosen === "string") return /^y/i.test(chosen);
  return chosen?.index === 0;
}

/** A picker as a numbered list: the value of the row chosen, undefined when cancelled. */
export async function pickNumbered<T>(
  opts: PickOptions<T>,
  io: NumberedIO,
): Promise<T | undefined> {
  io.print([`${opts.title}:`]);
  const chosen = await chooseNumber(io, {
    labels: opts.items.map((item) => item.detail ? `${item.label} — ${item.detail}` : item.label),
    prompt: `${opts.title}: a number (Enter cancels) › `,
  });
  return typeof chosen === "object" ? opts.items[chosen.index].value : undefined;
}
