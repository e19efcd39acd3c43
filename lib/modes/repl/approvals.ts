/**
 * Approval questions inline in the transcript, from the view the session builds for every front
 * end: what would run (the command, or the change as a diff), why it needs approval, and a
 * one-letter answer: y once, a for the session, n no. When the turn is cancelled while the user
 * is asked, the question is withdrawn.
 */
import type { ApprovalReply } from "../../approval/hook.ts";
import { terminalText } from "../../approval/visible.ts";
import type { ApprovalRequest } from "../../session/types.ts";
import type { ApprovalView } from "../../session/tool_views/approval_view.ts";
import { ANSWER_CHOICES, parseAnswer, type ParsedAnswer } from "../term/approval_answer.ts";
import { colorDiffLine, type Style } from "../term/style.ts";
import { head } from "../term/text_window.ts";

const PREVIEW_LINES = 40;

/** The line the user answers on. */
const ANSWER_PROMPT = `${ANSWER_CHOICES} › `;

/** What the REPL's approval prompt shows and reads through. */
export interface ReplApprovalIO {
  /** Shows lines in the transcript (stopping the spinner first). */
  print(lines: string[]): void;
  /** Reads one answer after `prompt`; stops reading and resolves null once `signal` fires. */
  answer(prompt: string, signal: AbortSignal): Promise<string | null>;
  style: Style;
  /** Plain mode: the options numbered, answered by a number and Enter (plain_choices.ts). */
  numbered?: boolean;
}

/**
 * The REPL's `approve`: the question in the transcript, then the answer line. When the turn is
 * cancelled first, the reading stops, a "withdrawn" line says so, and the promise rejects with
 * an `AbortError`.
 */
export function replApprover(
  io: ReplApprovalIO,
): (req: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply> {
  const withdrawn = () => {
    io.print([io.style.dim("withdrawn: the turn was cancelled")]);
    return new DOMException("The approval question was withdrawn", "AbortError");
  };
  return async (req, signal) => {
    if (signal.aborted) throw withdrawn();
    io.print(questionLines(req.view, io.style));
    const read = (prompt: string) => readUnlessWithdrawn(io.answer, prompt, signal);
    const text = io.numbered
      ? await (await import("./plain_choices.ts")).numberedApproval({ print: io.print, read })
      : await read(ANSWER_PROMPT);
    if (signal.aborted) throw withdrawn();
    const parsed = parseAnswer(text);
    io.print([answerLine(parsed, io.style)]);
    return parsed;
  };
}

/** What `read` returns for `prompt`, or null as soon as `signal` fires, even if `read` goes on. */
export function readUnlessWithdrawn(
  read: (prompt: string, signal: AbortSignal) => Promise<string | null>,
  prompt: string,
  signal: AbortSignal,
): Promise<string | null> {
  return new Promise<string | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    read(prompt, signal).then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The lines that show an approval question (its view, built by the session), control characters
 * in its texts made visible: a heading that asks (`Run make test?`, naming the tool as the model
 * called it), what would run or change unless the heading says it, and why.
 */
export function questionLines(view: ApprovalView, style: Style): string[] {
  const named = view.headingNamesTool ? "" : ` ${style.dim(`(${terminalText(view.tool)})`)}`;
  const body = view.bodyInHeading ? [] : bodyLines(view, style);
  return [
    `${style.bold(terminalText(view.heading))}${named}`,
    ...body.map((l) => `  ${l}`),
    `  ${style.dim("why:")} ${terminalText(view.reason)}`,
    ...(view.justification ? [`  ${style.dim("model:")} ${terminalText(view.justification)}`] : []),
  ];
}

/** What would run or change, made visible: a change's diff in color, its file in bold. */
function bodyLines(view: ApprovalView, style: Style): string[] {
  const lines = head(view.body.map(terminalText).join("\n"), PREVIEW_LINES);
  if (view.kind !== "file_change") return lines;
  const files = new Set(view.changes.map((c) => terminalText(`${c.kind} ${c.displayPath}`)));
  return lines.map((l) => files.has(l) ? style.bold(l) : colorDiffLine(l, style));
}

/** How the transcript confirms the answer. */
function answerLine(parsed: ParsedAnswer, style: Style): string {
  switch (parsed.answer) {
    case "once":
      return style.green("approved once");
    case "session":
      return style.green("approved for this session");
    case "deny":
      return style.red(`declined${parsed.note ? `: ${parsed.note}` : ""}`);
  }
}
