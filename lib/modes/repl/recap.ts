/**
 * What a resumed session shows before its prompt: the last few exchanges of the conversation,
 * each prompt with its answer and its tool calls one line each, so the user sees where the work
 * stood.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Message } from "../../model/message.ts";
import { describeCall } from "../term/loop_stop.ts";
import type { Style } from "../term/style.ts";

/** How many of the last prompts the recap shows. */
const RECAP_PROMPTS = 3;
/** Lines of a prompt or an answer shown before `… N more lines`. */
const MAX_LINES = 12;
/** Characters of a tool call's one-line description. */
const CALL_CHARS = 100;

/** The recap of `history` (a session's conversation without context); none when it is empty. */
export function recapLines(history: Message[], style: Style, prompts = RECAP_PROMPTS): string[] {
  const starts = history.flatMap((m, i) => isPrompt(m) ? [i] : []);
  const shown = starts.slice(-prompts);
  if (shown.length === 0) return [];
  const earlier = starts.length - shown.length;
  const lines = [
    style.dim(
      earlier > 0
        ? `── the last ${shown.length} of ${starts.length} prompts ──`
        : "── the conversation so far ──",
    ),
  ];
  for (const [n, start] of shown.entries()) {
    const end = shown[n + 1] ?? history.length;
    lines.push(...exchangeLines(history.slice(start, end), style));
  }
  lines.push(style.dim("──"));
  return lines;
}

/** A message the user typed (not a system-role note, not only images). */
function isPrompt(m: Message): boolean {
  return m.role === "user" && !m.systemRole && m.blocks.some((b) => b.type === "text");
}

function exchangeLines(exchange: Message[], style: Style): string[] {
  const [prompt, ...rest] = exchange;
  const lines = capped(textOf(prompt), style).map((line, i) =>
    style.bold(`${i === 0 ? "› " : "  "}${line}`)
  );
  for (const message of rest) {
    if (message.role === "tool_result") {
      if (message.isError) lines.push(style.dim("    ✗ failed"));
      continue;
    }
    for (const block of message.blocks) {
      if (block.type === "tool_call") {
        const call = terminalText(describeCall(block));
        const short = call.length > CALL_CHARS ? `${call.slice(0, CALL_CHARS - 1)}…` : call;
        lines.push(style.dim(`  • ${short}`));
      }
    }
    const answer = message.role === "assistant" ? textOf(message).trim() : "";
    if (answer) lines.push(...capped(answer, style));
  }
  return lines;
}

function textOf(message: Message): string {
  return message.blocks.flatMap((b) => b.type === "text" ? [b.text] : []).join("\n");
}

/** `text` made safe for the terminal, cut to `MAX_LINES` lines. */
function capped(text: string, style: Style): string[] {
  const lines = terminalText(text).split("\n");
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), style.dim(`… ${lines.length - MAX_LINES} more lines`)];
}
