/**
 * Exec's approval prompt on the controlling terminal (`/dev/tty`), for a run whose stdin and
 * stderr are terminals: the question, then `y` once, `a` for the session, `n` (a note may
 * follow) or anything else refuses. Cancelling the turn withdraws the question and closes the
 * terminal, which ends the pending read.
 */
import type { ApprovalReply } from "../../approval/hook.ts";
import { terminalText } from "../../approval/visible.ts";
import type { ApprovalView } from "../../session/tool_views/approval_view.ts";
import type { ApprovalRequest } from "../../session/types.ts";
import { ANSWER_CHOICES, parseAnswer } from "../term/approval_answer.ts";
import { head } from "../term/text_window.ts";

/** The most lines of what would run or change the question shows. */
const PREVIEW_LINES = 40;

/** The part of a terminal the prompt uses; `Deno.FsFile` has it. */
export interface Tty {
  read(buffer: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** Opens the controlling terminal for reading and writing. */
function openTty(): Promise<Tty> {
  return Deno.open("/dev/tty", { read: true, write: true });
}

/** Exec's `approve`: asks on the terminal `open()` returns, one question at a time. */
export function ttyApprover(
  open: () => Promise<Tty> = openTty,
): (req: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply> {
  return async ({ view }, signal) => {
    const withdrawn = () => new DOMException("The approval question was withdrawn", "AbortError");
    if (signal.aborted) throw withdrawn();
    const tty = await open();
    if (signal.aborted) {
      tty.close();
      throw withdrawn();
    }
    const encoder = new TextEncoder();
    let closed = false;
    const close = () => {
      if (!closed) tty.close();
      closed = true;
    };
    const onAbort = () => {
      // The read in flight ends with an error once the terminal is closed.
      tty.write(encoder.encode("\n(withdrawn: the turn was cancelled)\n")).then(close, close);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await tty.write(encoder.encode(questionText(view)));
      const buffer = new Uint8Array(1024);
      const n = await tty.read(buffer).catch((error) => {
        if (signal.aborted) return null;
        throw error;
      });
      if (signal.aborted) throw withdrawn();
      return parseAnswer(new TextDecoder().decode(buffer.subarray(0, n ?? 0)));
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (!signal.aborted) close();
    }
  };
}

/**
 * The question (the view the session builds for every front end) as the terminal shows it,
 * control characters in its texts made visible: the heading, what would run or change, why.
 */
function questionText(view: ApprovalView): string {
  const named = view.headingNamesTool ? "" : ` (${terminalText(view.tool)})`;
  const body = view.bodyInHeading
    ? []
    : head(view.body.map(terminalText).join("\n"), PREVIEW_LINES);
  return [
    `\n${terminalText(view.heading)}${named}`,
    ...body.map((line) => `  ${line}`),
    `  why: ${terminalText(view.reason)}`,
    ...(view.justification ? [`  model: ${terminalText(view.justification)}`] : []),
    `${ANSWER_CHOICES} > `,
  ].join("\n");
}
