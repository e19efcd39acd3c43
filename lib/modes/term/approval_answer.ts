/**
 * The one-letter answer to an approval question on a terminal, shared by the REPL's inline
 * prompt and exec's prompt on the controlling terminal.
 */
import type { ApprovalAnswer } from "../../approval/hook.ts";
import { APPROVAL_OPTIONS } from "../../session/tool_views/approval_view.ts";

/** The choices, as the answer line offers them (the options of every approval question). */
export const ANSWER_CHOICES = APPROVAL_OPTIONS.map((o) => `[${o.key}] ${o.keyLabel}`).join("  ");

/** The user's answer, from what they typed: `y`, `a`, or `n` with an optional note. */
export interface ParsedAnswer {
  answer: ApprovalAnswer;
  note?: string;
}

/** Reads an answer; anything that is not yes means no. */
export function parseAnswer(text: string | null): ParsedAnswer {
  const trimmed = (text ?? "").trim();
  const letter = trimmed.charAt(0).toLowerCase();
  const chosen = APPROVAL_OPTIONS.find((o) => o.key === letter)?.answer;
  if (chosen === "once" || chosen === "session") return { answer: chosen };
  const note = trimmed.replace(/^(no?\b|n)\s*[:,-]?\s*/i, "").trim();
  return { answer: "deny", ...(note ? { note } : {}) };
}
