/**
 * The REPL's accessible plain mode (`--plain`, `plain = true`, or `TERM=dumb`), for screen
 * readers and terminals that take no escape sequences: every line is written once, top to
 * bottom, nothing is redrawn and nothing colored; who speaks starts the line (`You:`, `Agent:`,
 * `Command:`, `Result:`); choices are numbered (plain_choices.ts); progress is a whole line now
 * and then instead of a spinner. Loaded by `import()` when the REPL starts, as few need it.
 */
import type { SessionConfig, SessionEvent } from "../../session/open.ts";
import { loadSessionConfig } from "../../session/setup.ts";
import { formatDuration } from "../term/duration.ts";
import { Transcript, type TranscriptOptions } from "./render.ts";

/** The origin of the override `--plain` adds (lib/cli/session_config.ts spells it the same). */
const PLAIN_FLAG = "--plain";

/** How often a long wait is reported, at most. */
const PROGRESS_EVERY_MS = 15_000;

const LABELS = { text: "Agent: ", thinking: "Thinking: " } as const;

/**
 * Whether the REPL runs in plain mode: under `TERM=dumb`, with `--plain`, or when the config
 * (any layer or profile, or `-c plain=true`) says `plain = true`. A config that cannot be read
 * means no: the session's own start reports why.
 */
export async function plainModeWanted(
  config: SessionConfig,
  env: Record<string, string>,
): Promise<boolean> {
  if (env.TERM === "dumb") return true;
  if (config.overrides?.some((o) => o.origin === PLAIN_FLAG)) return true;
  // The local server and the saved session play no part in this key.
  const { oss: _oss, resume: _resume, ...rest } = config;
  try {
    return (await loadSessionConfig(rest, { env })).values.plain === true;
  } catch {
    return false;
  }
}

/** Options of `PlainTranscript`: the transcript's, and how often progress is reported. */
export interface PlainTranscriptOptions extends TranscriptOptions {
  /** Default 15 s. */
  progressEveryMs?: number;
}

/**
 * The transcript in plain mode: the same events and lines, with role labels where a speaker
 * starts, and "Working… 30.0 s" lines while the model or a tool is awaited. It never writes a
 * spinner, Markdown styling or anything that moves the cursor.
 */
export class PlainTranscript extends Transcript {
  /** The stream the current line carries: its label was written. */
  #speaking: "text" | "thinking" | undefined;
  /** How the next `lines()` call is labelled (a tool call's start or end, an answer). */
  #relabel: ((lines: string[]) => string[]) | undefined;
  #column = 0;
  #hideReasoning: boolean;
  #progress: ProgressLines;

  constructor(opts: PlainTranscriptOptions) {
    super({ ...opts, spinner: false, markdown: false });
    this.#hideReasoning = opts.hideReasoning;
    this.#progress = new ProgressLines(
      opts.progressEveryMs ?? PROGRESS_EVERY_MS,
      (line) => this.#column === 0 && this.write(`${line}\n`),
    );
  }

  override handle(event: SessionEvent): void {
    switch (event.type) {
      case "thinking_delta":
        if (this.#hideReasoning) return;
        // falls through
      case "text_delta": {
        const kind = event.type === "text_delta" ? "text" : "thinking";
        const first = this.#speaking !== kind;
        super.handle(first ? { ...event, text: `${LABELS[kind]}${event.text}` } : event);
        this.#speaking = kind;
        return;
      }
      case "tool_start":
        return this.#labelled(event, toolStartLabels);
      case "tool_end":
        return this.#labelled(event, toolEndLabels);
      case "assistant_message":
        return this.#labelled(event, (lines) => withLabel(LABELS.text, lines));
      default:
        return super.handle(event);
    }
  }

  override setHideReasoning(hide: boolean): void {
    this.#hideReasoning = hide;
    super.setHideReasoning(hide);
  }

  override lines(lines: string[]): void {
    const relabel = this.#relabel;
    this.#relabel = undefined;
    super.lines(relabel ? relabel(lines) : lines);
  }

  override write(text: string): void {
    super.write(text);
    const nl = text.lastIndexOf("\n");
    this.#column = nl === -1 ? this.#column + text.length : text.length - nl - 1;
  }

  override endLine(): void {
    this.#speaking = undefined;
    super.endLine();
  }

  override startSpinner(label: string): void {
    super.startSpinner(label);
    this.#progress.start(label);
  }

  override stopSpinner(): void {
    super.stopSpinner();
    this.#progress.stop();
  }

  /** Handles `event`, its lines labelled by `relabel`. */
  #labelled(event: SessionEvent, relabel: (lines: string[]) => string[]): void {
    this.#relabel = relabel;
    try {
      super.handle(event);
    } finally {
      this.#relabel = undefined;
    }
  }
}

/** `label` before the first line. */
function withLabel(label: string, lines: string[]): string[] {
  return lines.map((line, i) => i === 0 ? `${label}${line}` : line);
}

/** A call's start: `Command: make test` for a command, `Tool: read notes.txt` for the others. */
function toolStartLabels(lines: string[]): string[] {
  return lines.map((line) => {
    if (line.startsWith("$ ")) return `Command: ${line.slice(2)}`;
    if (line.startsWith("• ")) return `Tool: ${line.slice(2)}`;
    return line;
  });
}

/** A call's end: `Result: exit 0 in 1.2 s`, its output under it as before. */
function toolEndLabels(lines: string[]): string[] {
  if (lines.length === 0) return lines;
  const [first, ...rest] = lines;
  return [`Result: ${first.trim().replace(/^[✓✗] /, "")}`, ...rest];
}

/** Progress as a whole line every `everyMs` while something is awaited. */
export class ProgressLines {
  #everyMs: number;
  #line: (text: string) => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `line` writes one line (and may skip it: the cursor is not at a line's start). */
  constructor(everyMs: number, line: (text: string) => void) {
    this.#everyMs = everyMs;
    this.#line = line;
  }

  /** Reports `label` every interval from now until `stop()`. */
  start(label: string): void {
    this.stop();
    const started = Date.now();
    this.#timer = setInterval(() => {
      const took = formatDuration(Date.now() - started);
      this.#line(`Working… ${took}: ${label} (Ctrl-C stops)`);
    }, this.#everyMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
