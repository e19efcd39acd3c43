import { terminalSafe } from "../../approval/visible.ts";
import type { LoopEvent } from "../../loop/events.ts";
import type { SessionEvent } from "../../session/open.ts";
import { harnessLabel } from "../../session/status.ts";
import { type Block, textOf } from "../../model/message.ts";
import { formatDuration } from "./duration.ts";
import { colorDiffLine, type Style } from "./style.ts";
import { head, tail } from "./text_window.ts";
import {
  type CommandView,
  type FileChangeView,
  type McpView,
  type PlanItem,
  type ToolCallViews,
  type ToolView,
  toolView,
} from "../../session/tool_views/tool_view.ts";

/**
 * How tool calls are tracked across events: with `calls`, a call's end is shown with what its
 * start said (input, denial, working directory); without it, from the end event alone.
 */
export interface ProgressOptions {
  calls?: ToolCallViews;
  /** Keeps a sub-agent's call ids apart from its parent's. */
  scope?: string;
}

/**
 * The stderr lines for one session event: the banner, warnings, refusals, sub-agent progress
 * indented under its label, and the loop's progress lines. Every text the event carries is shown
 * with its control characters made visible (`terminalText()`), before our styling is added.
 */
export function sessionLines(
  untrusted: SessionEvent,
  style: Style,
  opts: ProgressOptions = {},
): string[] {
  const event = terminalSafe(untrusted);
  if (event.type === "session_started" || event.type === "tool_denied") opts.calls?.see(event);
  switch (event.type) {
    case "session_started": {
      const { info } = event;
      return [
        style.dim(
          `workdir: ${info.cwd}\nmodel: ${info.model}\nprovider: ${info.provider} ` +
            `(${info.wireApi})\nharness: ${harnessLabel(info)}\n${info.sandbox}`,
        ),
        ...(info.worktree ? [style.dim(`worktree: ${info.worktree}`)] : []),
        ...(info.contextNote ? [style.dim(info.contextNote)] : []),
        ...(info.harnessReason ? [style.dim(`harness chosen by: ${info.harnessReason}`)] : []),
      ];
    }
    case "warning":
      return [`warning: ${event.message}`];
    case "tool_denied":
      return [`denied: ${event.reason.split("\n")[0]}`];
    case "harness_switched":
      return [style.dim(`harness: ${event.harness}`)];
    case "model_switched":
      return [
        style.dim(`model: ${event.model} (${event.provider})`),
        ...(event.contextNote ? [style.dim(event.contextNote)] : []),
      ];
    case "compacted":
      return [
        style.dim(`compacted the history: ${event.tokensBefore} → ${event.tokensAfter} tokens`),
      ];
    case "approval_requested":
    case "approval_resolved":
    case "approval_withdrawn":
      return [];
    case "subagent":
      return subagentLines(event, style, opts.calls);
    default:
      return progressLines(event, style, opts);
  }
}

/** A sub-agent's progress, each line behind a bar, between a header and its outcome. */
function subagentLines(
  { event, label, parentCallId }: Extract<SessionEvent, { type: "subagent" }>,
  style: Style,
  calls: ToolCallViews | undefined,
): string[] {
  const out: string[] = [];
  const scope = `agent ${parentCallId ?? label}`;
  if (event.type === "model_request" && event.index === 0) out.push(style.bold(`agent ${label}`));
  for (const line of progressLines(event, style, { calls, scope })) {
    out.push(`  ${style.dim("│")} ${line}`);
  }
  if (event.type === "turn_end") {
    out.push(`  ${style.dim(`└ agent ${label}: ${event.outcome.status}`)}`);
  }
  return out;
}

const OUTPUT_LINES = 12;
const DIFF_LINES = 40;

/**
 * Turns loop events into the progress lines `exec` prints on stderr: each command with its exit
 * code and the tail of its output, each patch as a short diff, plan updates and tool errors;
 * control characters in them are made visible.
 */
export function progressLines(
  untrusted: LoopEvent,
  style: Style,
  { calls, scope }: ProgressOptions = {},
): string[] {
  const event = terminalSafe(untrusted);
  switch (event.type) {
    case "tool_start":
      return startLines(calls?.see(event, scope) ?? toolView(event), style, event.input);
    case "tool_end":
      return endLines(calls?.see(event, scope) ?? toolView(event), style);
    case "assistant_message":
      return interimText(event.message.blocks, style);
    case "tool_progress":
      // A command's output is shown once, with its exit code, when it ends: on stderr, which is
      // often a log, streaming it as well would print it twice.
      return [];
    case "reply_cut":
      return [style.dim(`(cut off: the reply repeated the same text ${event.repeats} times)`)];
    case "retry":
      return [
        style.dim(
          `Reconnecting (${event.attempt}/${event.maxRetries}) ` +
            `in ${formatDuration(event.delayMs)}: ${event.reason}`,
        ),
      ];
    default:
      return [];
  }
}

function startLines(view: ToolView, style: Style, input: unknown): string[] {
  if (view.kind === "command" && view.job?.action !== "output" && view.job?.action !== "stop") {
    const title = commandTitle(input);
    return [...(title ? [style.bold(title)] : []), `${style.bold("exec")} ${view.command}`];
  }
  if (view.kind === "mcp") return [`${style.bold("mcp")} ${mcpCallLine(view)}`];
  return [];
}

/** An MCP call as one line: `server/tool {"arg":1}`, its arguments cut to a readable length. */
export function mcpCallLine(view: Pick<McpView, "server" | "tool" | "arguments">): string {
  const args = JSON.stringify(view.arguments ?? {});
  const shown = args.length > 160 ? `${args.slice(0, 159)}…` : args;
  return `${view.server}/${view.tool} ${shown}`;
}

/**
 * The title a harness gave a command (Claude Code's Bash `description`, mapped onto the shell
 * capability's `description`), as one line of at most 100 characters.
 */
export function commandTitle(input: unknown): string | undefined {
  const fields = typeof input === "object" && input !== null
    ? input as Record<string, unknown>
    : {};
  const text = typeof fields.description === "string" ? fields.description.trim() : "";
  const line = text.split("\n")[0].trim();
  if (line === "") return undefined;
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

const PLAN_MARKS: Record<PlanItem["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
  cancelled: "[-]",
};

function endLines(view: ToolView, style: Style): string[] {
  if (view.interrupted) return [style.red(`${view.name} interrupted`)];
  if (view.status === "failed" || view.status === "declined") {
    return [style.red(`${view.name} failed:`), ...indent(tail(view.error ?? "", OUTPUT_LINES))];
  }
  switch (view.kind) {
    case "command":
      return commandLines(view, style);
    case "file_change":
      return view.changes.flatMap((c) => [
        style.bold(changeTitle(c)),
        ...(c.diff ? head(c.diff, DIFF_LINES).map((l) => colorDiffLine(l, style)) : []),
      ]);
    case "plan":
      return [
        style.bold("plan"),
        ...view.items.map((p) => `  ${PLAN_MARKS[p.status]} ${p.text}`),
      ];
    case "mcp":
      return [
        style.green(`${view.server}/${view.tool} answered`),
        ...indent(head(view.text ?? "", OUTPUT_LINES)),
      ];
    default:
      return [];
  }
}

function commandLines(view: CommandView, style: Style): string[] {
  if (view.job) {
    return view.job.action === "start" ? [style.dim(`started job ${view.job.id ?? ""}`)] : [];
  }
  const code = view.exitCode;
  const status = code === 0 ? style.green("exited 0") : style.red(`exited ${code ?? "(timeout)"}`);
  const took = formatDuration(view.durationMs ?? 0);
  return [`${status} ${style.dim(`in ${took}`)}`, ...indent(tail(view.output ?? "", OUTPUT_LINES))];
}

/** `update a.py`, `add b.py`, `update a.py → c.py`, `update n.ipynb: insert cell 2 (code)`. */
export function changeTitle(change: FileChangeView): string {
  const moved = change.movedTo ? ` → ${change.movedTo}` : "";
  const summary = change.summary ? `: ${change.summary}` : "";
  return `${change.kind} ${change.displayPath}${moved}${summary}`;
}

/** Text the model writes alongside tool calls; the final answer goes to stdout instead. */
function interimText(blocks: Block[], style: Style): string[] {
  if (!blocks.some((b) => b.type === "tool_call")) return [];
  const thinking = blocks.filter((b) => b.type === "thinking").map((b) => b.text.trim());
  const text = textOf(blocks).trim();
  return [
    ...thinking.filter(Boolean).map((t) => style.dim(`thinking: ${t}`)),
    ...(text ? [text] : []),
  ];
}

function indent(list: string[]): string[] {
  return list.map((l) => `  ${l}`);
}
