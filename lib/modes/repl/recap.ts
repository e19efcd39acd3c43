/**
 * What a resumed session shows before its prompt: the last few exchanges of the conversation,
 * each prompt with its answer and its tool calls one line each, in the order the live view
 * showed them and named as it named them (`$ ls`, `• read a.py`), with how each ended.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Block, Message } from "../../model/message.ts";
import type { ReplayedCall, ReplayedHistory } from "../../session/replay_history.ts";
import { toolView } from "../../session/tool_views/tool_view.ts";
import { describeCall } from "../term/loop_stop.ts";
import { mcpCallLine } from "../term/progress.ts";
import type { Style } from "../term/style.ts";
import { subjectOf } from "./render.ts";

/** How many of the last prompts the recap shows. */
const RECAP_PROMPTS = 3;
/** Lines of a prompt or an answer shown before `… N more lines`. */
const MAX_LINES = 12;
/** Characters of a tool call's one-line description. */
const CALL_CHARS = 100;

/** The recap of a session's conversation (`replayHistory()`); none when it is empty. */
export function recapLines(
  { messages: history, calls }: ReplayedHistory,
  style: Style,
  prompts = RECAP_PROMPTS,
): string[] {
  const starts = history.flatMap((m, i) => isPrompt(m, history[i - 1]) ? [i] : []);
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
    lines.push(...exchangeLines(history.slice(start, end), calls, style));
  }
  lines.push(style.dim("──"));
  return lines;
}

/** A message the user typed (not a system-role note, not only images, not sent into a turn). */
function isPrompt(m: Message, before: Message | undefined): boolean {
  return isTyped(m) && before?.role !== "tool_result";
}

function isTyped(m: Message): boolean {
  return m.role === "user" && !m.systemRole && m.blocks.some((b) => b.type === "text");
}

function exchangeLines(
  exchange: Message[],
  calls: ReadonlyMap<string, ReplayedCall>,
  style: Style,
): string[] {
  const [prompt, ...rest] = exchange;
  const lines = capped(textOf(prompt), style).map((line, i) =>
    style.bold(`${i === 0 ? "› " : "  "}${line}`)
  );
  const failed = new Set(
    rest.flatMap((m) => m.role === "tool_result" && m.isError ? [m.callId] : []),
  );
  for (const message of rest) {
    // A line sent into the running turn (steering.ts), shown as it was when it landed.
    if (isTyped(message)) lines.push(style.dim(`↳ steered: ${terminalText(textOf(message))}`));
    if (message.role !== "assistant") continue;
    // Text and calls in the order the model wrote them, as the live view showed them.
    for (const block of message.blocks) {
      if (block.type === "text" && block.text.trim()) {
        lines.push(...capped(block.text.trim(), style));
      }
      if (block.type !== "tool_call") continue;
      const call = calls.get(block.id) ?? {};
      const end = call.interrupted ? " ✗ interrupted" : failed.has(block.id) ? " ✗ failed" : "";
      lines.push(style.dim(`  ${callLine(block, call)}${end}`));
    }
  }
  return lines;
}

/** A call on one line as the live view starts it: `$ command`, `• read a.py`, `• mcp s/t {}`. */
function callLine(block: Extract<Block, { type: "tool_call" }>, call: ReplayedCall): string {
  const event = { type: "tool_start" as const, call: block, ...call };
  const view = call.capability ? toolView(event) : undefined;
  let line: string;
  if (view?.kind === "command" && !view.job && view.command) line = `$ ${view.command}`;
  else if (view?.kind === "mcp") line = `• mcp ${mcpCallLine(view)}`;
  else if (view) line = `• ${[view.name, subjectOf(view)].filter(Boolean).join(" ")}`;
  else line = `• ${describeCall(block)}`;
  const shown = terminalText(line.split("\n")[0]);
  return shown.length > CALL_CHARS ? `${shown.slice(0, CALL_CHARS - 1)}…` : shown;
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
