/**
 * The REPL's transcript: session events turned into text written below the input line, in
 * order, never redrawing what was written before. Only the spinner rewrites its own line.
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import type { LoopEvent } from "../../loop/events.ts";
import { type Block, textOf } from "../../model/message.ts";
import { formatDuration } from "../term/duration.ts";
import { describeCall, limitWords } from "../term/loop_stop.ts";
import { changeTitle, commandTitle, mcpCallLine, sessionLines } from "../term/progress.ts";
import { colorDiffLine, type Style } from "../term/style.ts";
import { head, headAndTail, tail } from "../term/text_window.ts";
import type { SessionEvent } from "../../session/open.ts";
import { ToolCallViews, type ToolView } from "../../session/tool_views/tool_view.ts";
import { AnswerText } from "./answer_text.ts";

/** How much of a failed command's output the transcript shows. */
const FAILED_OUTPUT_LINES = 20;
/** How much of a successful command's output it shows: its first and last lines. */
const OUTPUT_PREVIEW_LINES = 6;
const DIFF_LINES = 60;
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Lines of a running call's output shown under the spinner. */
const PROGRESS_LINES = 3;
/** Characters of an unfinished output line kept (its end: a progress bar redraws there). */
const PARTIAL_LINE_CHARS = 1000;

/** Where the transcript goes and what it may use. */
export interface TranscriptOptions {
  write(text: string): void;
  style: Style;
  /** A spinner with elapsed time; only on a terminal that accepts escape sequences. */
  spinner: boolean;
  hideReasoning: boolean;
  /** The terminal's width, for cutting the output lines under the spinner; default its own. */
  columns?: () => number;
  /** Render the model's Markdown (a terminal that shows colors); else its text as written. */
  markdown?: boolean;
  /** Show no output of a successful command (`hide_command_output`). */
  hideCommandOutput?: boolean;
}

/** Renders session events as they arrive. */
export class Transcript {
  #opts: TranscriptOptions;
  #column = 0;
  #streaming: "text" | "thinking" | undefined;
  #sawText = false;
  /** Pairs each call's end with its start and denial. */
  #calls = new ToolCallViews();
  #spin:
    | { label: string; started: number; timer: ReturnType<typeof setInterval>; shown: boolean }
    | undefined;
  /** The running call and the last lines of its output (the last one unfinished). */
  #running: { callId: string; lines: string[] } | undefined;
  /** The session's status line, drawn dim under the spinner (lib/modes/term/status_line.ts). */
  #statusLine: string | undefined;
  /** What the user types during the turn, drawn under the spinner (steering.ts). */
  typing: string | undefined;

  /** The model's answer, rendered as it streams. */
  #answer: AnswerText;

  constructor(opts: TranscriptOptions) {
    this.#opts = opts;
    this.#answer = new AnswerText(opts.markdown === true, opts.columns);
  }

  /** Loads the Markdown renderer; resolves once it is there (an answer waits for it). */
  ready(): Promise<void> {
    return this.#answer.ready();
  }

  /** Shows or hides the output of successful commands from now on. */
  setHideCommandOutput(hide: boolean): void {
    this.#opts.hideCommandOutput = hide;
  }

  /** Shows or hides the model's reasoning from now on. */
  setHideReasoning(hide: boolean): void {
    this.#opts.hideReasoning = hide;
  }

  /** Sets the status line the spinner shows under it; undefined shows none. */
  setStatusLine(line: string | undefined): void {
    this.#statusLine = line;
  }

  /** Writes raw text, keeping track of whether the cursor is at the start of a line. */
  write(text: string): void {
    if (text === "") return;
    this.#clearSpinner();
    this.#opts.write(text);
    const nl = text.lastIndexOf("\n");
    this.#column = nl === -1 ? this.#column + text.length : text.length - nl - 1;
  }

  /** Writes whole lines, first ending a line left open by streamed text. */
  lines(lines: string[]): void {
    if (lines.length === 0) return;
    this.endLine();
    this.write(lines.join("\n") + "\n");
  }

  /** Ends a line left open by streamed text, first writing what is left of an answer. */
  endLine(): void {
    if (this.#streaming === "text") this.write(this.#answer.end());
    this.#streaming = undefined;
    if (this.#column > 0) this.write("\n");
  }

  /** Shows the spinner until the next output; `label` says what is awaited. */
  startSpinner(label: string): void {
    this.stopSpinner();
    if (!this.#opts.spinner) return;
    const started = Date.now();
    const timer = setInterval(() => this.#drawSpinner(), 100);
    this.#spin = { label, started, timer, shown: false };
  }

  stopSpinner(): void {
    if (!this.#spin) return;
    clearInterval(this.#spin.timer);
    this.#clearSpinner();
    this.#spin = undefined;
  }

  /**
   * Renders one session event. Every text it carries (the model's, a command's output, a tool's
   * name) is shown with its control characters made visible; a delta at a time is enough, as an
   * escape sequence split across deltas has its ESC made visible in the first.
   */
  handle(untrusted: SessionEvent): void {
    // Progress is made safe line by line as it is drawn, after carriage returns did their part.
    if (untrusted.type === "tool_progress") return this.#progress(untrusted);
    if (untrusted.type === "subagent" && untrusted.event.type === "tool_progress") return;
    const event = terminalSafe(untrusted);
    const { style } = this.#opts;
    switch (event.type) {
      case "session_started":
        this.#calls.see(event);
        return;
      case "approval_requested":
      case "approval_resolved":
      case "approval_withdrawn":
        return;
      case "model_request":
        this.#sawText = false;
        return this.startSpinner("waiting for the model");
      case "thinking_delta":
        if (this.#opts.hideReasoning) return;
        this.stopSpinner();
        if (this.#streaming !== "thinking") this.endLine();
        this.#streaming = "thinking";
        return this.write(style.dim(event.text));
      case "text_delta": {
        if (this.#streaming !== "text") this.endLine();
        this.#streaming = "text";
        this.#sawText = true;
        // Markdown is held until a block is complete; the spinner goes on meanwhile.
        const shown = this.#answer.push(event.text);
        if (shown) this.stopSpinner();
        return this.write(shown);
      }
      case "assistant_message":
        this.stopSpinner();
        this.endLine();
        // A provider that does not stream still gets its text shown.
        if (!this.#sawText) {
          this.lines(unstreamedText(event.message.blocks).map((t) => this.#answer.whole(t)));
        }
        return;
      case "tool_start":
        this.lines(toolStartLines(this.#calls.see(event)!, style, event.input));
        this.startSpinner(event.call.name);
        this.#running = { callId: event.call.id, lines: [""] };
        return;
      case "tool_end":
        this.#running = undefined;
        this.stopSpinner();
        return this.lines(
          toolEndLines(this.#calls.see(event)!, style, this.#opts.hideCommandOutput === true),
        );
      case "tool_denied":
        this.#calls.see(event);
        // The user's own refusal was confirmed where they answered.
        if (event.reason.startsWith("The user refused")) return;
        return this.lines([style.red(`denied: ${event.reason.split("\n")[0]}`)]);
      case "model_switched":
        return this.lines([
          style.dim(
            `model: ${event.provider}/${event.model}` +
              (event.reasoningEffort ? ` (effort ${event.reasoningEffort})` : ""),
          ),
          ...(event.contextNote ? [style.dim(event.contextNote)] : []),
        ]);
      case "compacted":
        return this.lines([
          style.dim(`compacted the history: ${event.tokensBefore} → ${event.tokensAfter} tokens`),
        ]);
      case "turn_end":
        this.stopSpinner();
        return this.lines(outcomeLines(event, style));
      default:
        this.stopSpinner();
        return this.lines(sessionLines(event, style, { calls: this.#calls }));
    }
  }

  /** Keeps the last lines of the running call's output for the spinner to show. */
  #progress(event: Extract<SessionEvent, { type: "tool_progress" }>): void {
    const running = this.#running;
    if (!running || running.callId !== event.callId) return;
    const [first, ...rest] = event.text.replaceAll("\r\n", "\n").split("\n");
    const lines = running.lines;
    lines[lines.length - 1] = (lines.at(-1)! + first).slice(-PARTIAL_LINE_CHARS);
    lines.push(...rest.map((line) => line.slice(-PARTIAL_LINE_CHARS)));
    lines.splice(0, Math.max(0, lines.length - PROGRESS_LINES - 1));
  }

  /** The running call's last output lines as drawn: made safe, cut to the terminal's width. */
  #progressLines(): string[] {
    const lines = this.#running?.lines ?? [];
    const width = Math.max(10, (this.#opts.columns ?? terminalColumns)() - 5);
    return (lines.at(-1) === "" ? lines.slice(0, -1) : lines).slice(-PROGRESS_LINES)
      // A carriage return starts the line over, as it does on a terminal (progress bars).
      .map((line) => terminalText(line.slice(line.lastIndexOf("\r") + 1)))
      .map((line) => line.length > width ? `${line.slice(0, width - 1)}…` : line);
  }

  #drawSpinner(): void {
    const spin = this.#spin;
    if (!spin || this.#column > 0) return;
    const elapsed = Math.floor((Date.now() - spin.started) / 1000);
    const frame = FRAMES[Math.floor((Date.now() - spin.started) / 100) % FRAMES.length];
    const below = this.#progressLines().map((line) => `  ${line}`);
    if (this.#statusLine) below.push(this.#cutStatusLine(this.#statusLine));
    if (this.typing) below.push(this.#cutStatusLine(terminalText(this.typing)));
    const lines = below.map((line) => `\n${this.#opts.style.dim(line)}`).join("");
    // Drawn from the start of the spinner's line down; the cursor goes back to that line.
    const back = below.length ? `\x1b[${below.length}A\r` : "";
    this.#opts.write(
      `\r\x1b[J${frame} ${spin.label} (${elapsed}s · Esc to stop)${lines}${back}`,
    );
    spin.shown = true;
  }

  /** The status line cut to the terminal's width: a wrapped line would break the redraw. */
  #cutStatusLine(line: string): string {
    const width = Math.max(10, (this.#opts.columns ?? terminalColumns)() - 1);
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  }

  /** Erases the spinner and the lines under it (nothing of the transcript is below them). */
  #clearSpinner(): void {
    if (this.#spin?.shown) {
      this.#opts.write("\r\x1b[J");
      this.#spin.shown = false;
    }
  }
}

/** The terminal's width, or 80 when the output is not a terminal. */
function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

function toolStartLines(view: ToolView, style: Style, input: unknown): string[] {
  if (view.kind === "command" && view.job?.action !== "output" && view.job?.action !== "stop") {
    const title = commandTitle(input);
    return [...(title ? [style.bold(title)] : []), `${style.bold("$")} ${view.command}`];
  }
  if (view.kind === "file_change") return []; // its end names the file, once
  if (view.kind === "mcp") return [style.dim(`• mcp ${mcpCallLine(view)}`)];
  const target = subjectOf(view);
  return [style.dim(`• ${view.name}${target ? ` ${target}` : ""}`)];
}

/** What a call acts on, for its one-line start. */
export function subjectOf(view: ToolView): string | undefined {
  switch (view.kind) {
    case "command":
      return view.job?.id;
    case "file_change":
      return view.changes.map((c) => c.displayPath).join(", ");
    case "file_read":
      return view.displayPath;
    case "search":
      return view.pattern;
    case "fetch":
      return view.query ?? view.url;
    case "subagent":
      return view.description;
    case "generic":
      return view.subject;
    default:
      return undefined;
  }
}

const PLAN_MARKS = { completed: "✓", in_progress: "→", pending: "·", cancelled: "✗" };

function toolEndLines(view: ToolView, style: Style, hideOutput: boolean): string[] {
  // A refusal was shown when it happened; the error result only repeats it.
  if (view.status === "declined") return [];
  if (view.interrupted) return [style.red("  ✗ interrupted")];
  if (view.status === "failed") {
    return [
      style.red(
        `  ✗ ${view.name}${view.kind === "file_change" ? ` ${subjectOf(view)}` : ""} failed`,
      ),
      ...tail(view.error ?? "", FAILED_OUTPUT_LINES).map((l) => `    ${l}`),
    ];
  }
  switch (view.kind) {
    case "command": {
      if (view.job) {
        return view.job.action === "start" ? [style.dim(`  job ${view.job.id ?? ""} started`)] : [];
      }
      const code = view.exitCode;
      const took = style.dim(`in ${formatDuration(view.durationMs ?? 0)}`);
      if (code === 0) {
        const shown = hideOutput ? [] : headAndTail(view.output ?? "", OUTPUT_PREVIEW_LINES);
        return [`  ${style.green("✓ exit 0")} ${took}`, ...shown.map((l) => `    ${style.dim(l)}`)];
      }
      return [
        `  ${style.red(`✗ exit ${code ?? "(timeout)"}`)} ${took}`,
        ...tail(view.output ?? "", FAILED_OUTPUT_LINES).map((l) => `    ${l}`),
      ];
    }
    case "file_change":
      return view.changes.flatMap((c) =>
        c.diff
          ? [
            style.bold(changeTitle(c)),
            ...head(c.diff.replace(/^--- .*\n\+\+\+ .*\n/, ""), DIFF_LINES) // named above
              .map((l) => colorDiffLine(l, style)),
          ]
          : c.summary
          ? [style.bold(changeTitle(c))]
          : []
      );
    case "plan":
      return view.items.map((p) => `  ${PLAN_MARKS[p.status]} ${p.text}`);
    case "mcp": {
      const shown = hideOutput ? [] : headAndTail(view.text ?? "", OUTPUT_PREVIEW_LINES);
      return [`  ${style.green("✓ answered")}`, ...shown.map((l) => `    ${style.dim(l)}`)];
    }
    default:
      return [];
  }
}

function outcomeLines(event: Extract<LoopEvent, { type: "turn_end" }>, style: Style): string[] {
  const { outcome } = event;
  switch (outcome.status) {
    case "completed":
      return [];
    case "aborted":
      return [style.red("Interrupted")];
    case "step_limit":
    case "budget_limit": {
      const words = limitWords(outcome, (key, to) => `-c ${key}=${to} at start`);
      return [style.red(words.message), style.dim(words.hint)];
    }
    case "failed":
      return [
        style.red(`error: ${outcome.error.message}`),
        ...(outcome.error.hint ? [`hint: ${outcome.error.hint}`] : []),
      ];
    case "repeated_call":
      return [
        style.red(`Stopped: ${outcome.words.headline}`),
        style.dim(`  ${terminalText(describeCall(outcome.call))}`),
        ...outcome.call.error.split("\n").map((line) => style.dim(`  ${line}`)),
      ];
  }
}

function unstreamedText(blocks: Block[]): string[] {
  const text = textOf(blocks).trim();
  return text ? [text] : [];
}

/** Colors a whole unified diff for `/diff`, its control characters made visible. */
export function colorDiff(diff: string, style: Style): string {
  return terminalText(diff).split("\n").map((l) =>
    l.startsWith("diff --git") ? style.bold(l) : colorDiffLine(l, style)
  ).join("\n");
}
