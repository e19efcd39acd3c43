/**
 * Approval questions inline in the transcript: what would run (the command, or the change as a
 * diff), why it needs approval, and a one-letter answer: y once, a for the session, n no. When
 * the turn is cancelled while the user is asked, the question is withdrawn.
 */
import type { ApprovalQuestion, Approver } from "../../approval/hook.ts";
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { ANSWER_CHOICES, parseAnswer, type ParsedAnswer } from "../term/approval_answer.ts";
import { colorDiffLine, type Style } from "../term/style.ts";
import { head } from "../term/text_window.ts";

export { parseAnswer, type ParsedAnswer } from "../term/approval_answer.ts";

const PREVIEW_LINES = 40;
/** The longest command shown in the question's heading; a longer one gets its own lines. */
const HEADING_COMMAND_CHARS = 100;

/** The line the user answers on. */
const ANSWER_PROMPT = `${ANSWER_CHOICES} › `;

/** What the REPL's approval prompt shows and reads through. */
export interface ReplApprovalIO {
  /** Shows lines in the transcript (stopping the spinner first). */
  print(lines: string[]): void;
  /** Reads one answer after `prompt`; stops reading and resolves null once `signal` fires. */
  answer(prompt: string, signal: AbortSignal): Promise<string | null>;
  style: Style;
}

/**
 * The REPL's `approve`: the question in the transcript, then the answer line. When the turn is
 * cancelled first, the reading stops, a "withdrawn" line says so, and the promise rejects with
 * an `AbortError`.
 */
export function replApprover(io: ReplApprovalIO): Approver {
  const withdrawn = () => {
    io.print([io.style.dim("withdrawn: the turn was cancelled")]);
    return new DOMException("The approval question was withdrawn", "AbortError");
  };
  return async (req, signal) => {
    const { question } = req;
    if (signal.aborted) throw withdrawn();
    io.print(questionLines(question, io.style, req.tool));
    const text = await readUnlessWithdrawn(io.answer, ANSWER_PROMPT, signal);
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
 * The lines that show an approval question, control characters in its texts made visible: a
 * heading that names the tool as the model called it (`tool`, default the capability) and, for
 * a short command, the command itself (`Run make test?`).
 */
export function questionLines(
  question: ApprovalQuestion,
  style: Style,
  tool = question.capability,
): string[] {
  const { reason, justification } = terminalSafe(question);
  const where = question.unsandboxed ? " outside the sandbox" : "";
  const command = shortCommand(question);
  const heading = command === undefined
    ? `Allow ${terminalText(tool)}${where}?`
    : `Run ${command}${where}?`;
  const named = command === undefined ? "" : ` ${style.dim(`(${terminalText(tool)})`)}`;
  return [
    `${style.bold(heading)}${named}`,
    ...(command === undefined ? subjectLines(question, style).map((l) => `  ${l}`) : []),
    `  ${style.dim("why:")} ${reason}`,
    ...(justification ? [`  ${style.dim("model:")} ${justification}`] : []),
  ];
}

/** A command that fits on the heading line, made visible; undefined for anything else. */
function shortCommand(question: ApprovalQuestion): string | undefined {
  if (!question.capability.startsWith("shell.")) return undefined;
  const command = terminalText(question.subject);
  return command.includes("\n") || command.length > HEADING_COMMAND_CHARS ? undefined : command;
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
