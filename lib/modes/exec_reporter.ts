import type { LoopEvent } from "../loop/events.ts";
import type { SessionEvent } from "./session.ts";
import { type Block, textOf } from "../model/message.ts";

/** Styling for stderr progress; plain when stderr is not a terminal or NO_COLOR is set. */
export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
}

/** ANSI styling, or none. */
export function makeStyle(color: boolean): Style {
  const wrap = (code: string) => (text: string) => color ? `\x1b[${code}m${text}\x1b[0m` : text;
  return { dim: wrap("2"), bold: wrap("1"), red: wrap("31"), green: wrap("32") };
}

/**
 * The stderr lines for one session event: the banner, warnings, refusals, sub-agent progress
 * indented under its label, and the loop's progress lines.
 */
export function sessionLines(event: SessionEvent, style: Style): string[] {
  switch (event.type) {
    case "session_started": {
      const { info } = event;
      return [
        style.dim(
          `workdir: ${info.cwd}\nmodel: ${info.model}\nprovider: ${info.provider} ` +
            `(${info.wireApi})\nharness: ${info.harness}\n${info.sandbox}`,
        ),
      ];
    }
    case "warning":
      return [`warning: ${event.message}`];
    case "tool_denied":
      return [`denied: ${event.reason.split("\n")[0]}`];
    case "harness_switched":
      return [style.dim(`harness: ${event.harness}`)];
    case "model_switched":
      return [style.dim(`model: ${event.model} (${event.provider})`)];
    case "compacted":
      return [
        style.dim(`compacted the history: ${event.tokensBefore} → ${event.tokensAfter} tokens`),
      ];
    case "approval_requested":
    case "approval_resolved":
      return [];
    case "subagent":
      return subagentLines(event.event, event.label, style);
    default:
      return progressLines(event, style);
  }
}

/** A sub-agent's progress, each line behind a bar, between a header and its outcome. */
function subagentLines(event: LoopEvent, label: string, style: Style): string[] {
  const out: string[] = [];
  if (event.type === "model_request" && event.index === 0) out.push(style.bold(`agent ${label}`));
  for (const line of progressLines(event, style)) out.push(`  ${style.dim("│")} ${line}`);
  if (event.type === "turn_end") {
    out.push(`  ${style.dim(`└ agent ${label}: ${event.outcome.status}`)}`);
  }
  return out;
}

const OUTPUT_LINES = 12;
const DIFF_LINES = 40;

/**
 * Turns loop events into the progress lines `exec` prints on stderr: each command with its exit
 * code and the tail of its output, each patch as a short diff, plan updates and tool errors.
 */
export function progressLines(event: LoopEvent, style: Style): string[] {
  switch (event.type) {
    case "tool_start":
      return startLines(event, style);
    case "tool_end":
      return endLines(event, style);
    case "assistant_message":
      return interimText(event.message.blocks, style);
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

function startLines(event: Extract<LoopEvent, { type: "tool_start" }>, style: Style): string[] {
  const input = event.input as Record<string, unknown> | undefined;
  if (event.capability === "shell.run" && input) {
    return [`${style.bold("exec")} ${String(input.command)}`];
  }
  return [];
}

function endLines(event: Extract<LoopEvent, { type: "tool_end" }>, style: Style): string[] {
  if (event.isError) {
    return [style.red(`${event.call.name} failed:`), ...indent(tail(event.text, OUTPUT_LINES))];
  }
  const output = event.output as Record<string, unknown> | undefined;
  if (event.capability === "shell.run" && output) {
    const code = output.exitCode;
    const status = code === 0
      ? style.green("exited 0")
      : style.red(`exited ${code ?? "(timeout)"}`);
    const took = formatDuration(Number(output.durationMs ?? 0));
    return [
      `${status} ${style.dim(`in ${took}`)}`,
      ...indent(tail(String(output.output), OUTPUT_LINES)),
    ];
  }
  if (event.capability === "fs.apply_patch" && output) {
    const changes = output.changes as Array<{ path: string; kind: string; diff: string }>;
    return changes.flatMap((c) => [
      style.bold(`${c.kind} ${c.path}`),
      ...head(c.diff, DIFF_LINES).map((l) => colorDiffLine(l, style)),
    ]);
  }
  if (event.capability === "plan.update" && output) {
    const plan = output.plan as Array<{ step: string; status: string }>;
    const mark = { completed: "[x]", in_progress: "[~]", pending: "[ ]" } as Record<string, string>;
    return [style.bold("plan"), ...plan.map((p) => `  ${mark[p.status] ?? "[ ]"} ${p.step}`)];
  }
  return [];
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

/** `850 ms`, `1.2 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A unified diff line: additions green, removals red, the rest dim. */
export function colorDiffLine(line: string, style: Style): string {
  if (line.startsWith("+") && !line.startsWith("+++")) return style.green(line);
  if (line.startsWith("-") && !line.startsWith("---")) return style.red(line);
  return style.dim(line);
}

function lines(text: string): string[] {
  const all = text.replace(/\n$/, "").split("\n");
  return all.length === 1 && all[0] === "" ? [] : all;
}

/** The last `n` lines of `text`, after a note of how many were left out. */
export function tail(text: string, n: number): string[] {
  const all = lines(text);
  return all.length <= n ? all : [`… ${all.length - n} earlier lines`, ...all.slice(-n)];
}

/** The first `n` lines of `text`, then a note of how many were left out. */
export function head(text: string, n: number): string[] {
  const all = lines(text);
  return all.length <= n ? all : [...all.slice(0, n), `… ${all.length - n} more lines`];
}

function indent(list: string[]): string[] {
  return list.map((l) => `  ${l}`);
}
