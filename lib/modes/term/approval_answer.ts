/**
 * The one-letter answer to an approval question on a terminal, shared by the REPL's inline
 * prompt and exec's prompt on the controlling terminal.
 */
import type { ApprovalAnswer } from "../../approval/hook.ts";

/** The choices, as the answer line offers them. */
export const ANSWER_CHOICES = "[y] yes once  [a] yes for this session  [n] no (a note may follow)";

/** The user's answer, from what they typed: `y`, `a`, or `n` with an optional note. */
export interface ParsedAnswer {
  answer: ApprovalAnswer;
  note?: string;
}

/** Reads an answer; anything that is not yes means no. */
export function parseAnswer(text: string | null): ParsedAnswer {
  const trimmed = (text ?? "").trim();
  const letter = trimmed.charAt(0).toLowerCase();
  if (letter === "y") return { answer: "once" };
  if (letter === "a") return { answer: "session" };
  const note = trimmed.replace(/^(no?\b|n)\s*[:,-]?\s*/i, "").trim();
  return { answer: "deny", ...(note ? { note } : {}) };
}
