/**
 * Approval questions inline in the transcript: what would run (the command, or the change as a
 * diff), why it needs approval, and a one-letter answer: y once, a for the session, n no.
 */
import type { ApprovalAnswer, ApprovalQuestion } from "../../approval/hook.ts";
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { colorDiffLine, head, type Style } from "../term/progress.ts";

const PREVIEW_LINES = 40;

/** The line the user answers on. */
export const ANSWER_PROMPT =
  "[y] yes once  [a] yes for this session  [n] no (a note may follow) › ";

/** The lines that show an approval question, control characters in its texts made visible. */
export function questionLines(question: ApprovalQuestion, style: Style): string[] {
  const { capability, reason, justification } = terminalSafe(question);
  const where = question.unsandboxed ? " outside the sandbox" : "";
  return [
    style.bold(`Allow ${capability}${where}?`),
    ...subjectLines(question, style).map((l) => `  ${l}`),
    `  ${style.dim("why:")} ${reason}`,
    ...(justification ? [`  ${style.dim("model:")} ${justification}`] : []),
  ];
}

/** A command as `$ …`; a patch or edit as a diff; anything else as its JSON input. */
function subjectLines(question: ApprovalQuestion, style: Style): string[] {
  const subject = terminalText(question.subject);
  if (question.capability.startsWith("shell.")) return [`$ ${subject}`];
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(question.subject);
  } catch {
    return [subject];
  }
  // JSON escapes only C0 controls; the parsed strings are made visible before they are shown.
  const input = terminalSafe(parsed);
  if (typeof input.patch === "string") {
    return head(input.patch, PREVIEW_LINES).map((l) => colorDiffLine(l, style));
  }
  const path = typeof input.path === "string" ? input.path : undefined;
  if (Array.isArray(input.edits) || typeof input.old_string === "string") {
    const edits = (Array.isArray(input.edits) ? input.edits : [input]) as Array<
      { old_string?: unknown; new_string?: unknown }
    >;
    const body = edits.flatMap((e) => [
      ...String(e.old_string ?? "").split("\n").map((l) => `-${l}`),
      ...String(e.new_string ?? "").split("\n").map((l) => `+${l}`),
    ]);
    return [
      style.bold(`edit ${path ?? ""}`),
      ...head(body.join("\n"), PREVIEW_LINES).map((l) => colorDiffLine(l, style)),
    ];
  }
  if (path !== undefined && typeof input.content === "string") {
    const body = input.content.split("\n").map((l) => `+${l}`).join("\n");
    return [
      style.bold(`write ${path}`),
      ...head(body, PREVIEW_LINES).map((l) => colorDiffLine(l, style)),
    ];
  }
  return head(terminalText(JSON.stringify(parsed, null, 2)), PREVIEW_LINES);
}

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

/** How the transcript confirms the answer. */
export function answerLine(parsed: ParsedAnswer, style: Style): string {
  switch (parsed.answer) {
    case "once":
      return style.green("approved once");
    case "session":
      return style.green("approved for this session");
    case "deny":
      return style.red(`declined${parsed.note ? `: ${parsed.note}` : ""}`);
  }
}
