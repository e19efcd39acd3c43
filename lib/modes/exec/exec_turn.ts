// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * How an exec run reports and ends, for a task and for `exec review`: progress or JSONL events,
 * the interrupt signals, `-o FILE`, the answer or the failure, and the exit code.
 */
import { resolve } from "node:path";
import { terminalText } from "../../approval/visible.ts";
import { UserError } from "../../errors.ts";
import type { TurnOutcome } from "../../loop/events.ts";
import type { Usage } from "../../model/message.ts";
import type { ProviderFailure } from "../../model/stream.ts";
import type { PromptOutcome, Session, SessionEvent } from "../../session/open.ts";
import { type OutputPlace, writeOutputText } from "../../session/run_outputs.ts";
import { ToolCallViews } from "../../session/tool_views/tool_view.ts";
import { hintOf } from "../../trajectory/write.ts";
import { ExecJsonStream, writeJsonLine } from "./exec_json.ts";
import type { ExecOptions } from "./exec_options.ts";
import { readAllStdin, readPrompt } from "./prompt_input.ts";
import { limitWords, repeatedCallFailure } from "../term/loop_stop.ts";
import { sessionLines } from "../term/progress.ts";
import { colorWanted, makeStyle } from "../term/style.ts";
import { sessionStatusLine } from "../term/status_line.ts";

/**
 * How an exec run ends: `-o FILE`, then the outcome as JSONL or for a person (the status line
 * last on stderr, when given); the exit code.
 */
export async function finishExec(
  outcome: PromptOutcome,
  run: {
    json?: ExecJsonStream;
    usage: Usage;
    stoppedBy?: { name: Deno.Signal; code: number };
    outputLastMessage?: string;
    /** Where the session's output files go (`-o` never follows a link; see output_file.ts). */
    outputPlace: OutputPlace;
    /** The session's status line; without it, `tokens used: N` is printed instead. */
    statusLine?: string;
  },
): Promise<number> {
  const { json, usage, stoppedBy, statusLine } = run;
  // A refused -o still lets the answer reach stdout; the error follows it, and the exit code is 1.
  const written: { warning?: string; error?: UserError } = {};
  if (run.outputLastMessage) {
    await writeLastMessage(run.outputLastMessage, outcome, run.outputPlace).then(
      (warning) => written.warning = warning,
      (error: unknown) => {
        if (!(error instanceof UserError)) throw error;
        written.error = error;
      },
    );
  }
  if (written.warning) console.error(`warning: ${terminalText(written.warning)}`);
  const code = json ? jsonEnding(json, outcome, usage, stoppedBy) : report(outcome, {
    tokens: usage.inputTokens + usage.outputTokens,
    stoppedBy,
    statusLine,
  });
  if (!written.error) return code;
  printFailure(written.error);
  return code || written.error.exitCode;
}

/** The end of a `--json` run: the answer or the failure as events; the exit code. */
function jsonEnding(
  json: ExecJsonStream,
  outcome: PromptOutcome,
  usage: Usage,
  stoppedBy?: { name: Deno.Signal; code: number },
): number {
  if (outcome.status === "aborted") return stoppedBy?.code ?? 130;
  if (outcome.status === "completed") {
    json.agentMessage(outcome.finalText);
    json.turnCompleted(usage);
    return 0;
  }
  const error = failureOf(outcome);
  printFailure(error);
  json.turnFailed(error.message, {
    providerError: outcome.status === "failed" && !("schemaViolation" in outcome),
    reason: error.reason,
  });
  return 1;
}

/** The prompt from the argument and stdin, by Codex's rules (see `readPrompt`). */
export function readExecPrompt(argument: string | undefined): Promise<string> {
  return readPrompt({
    argument,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    readStdin: readAllStdin,
    note: (line) => console.error(line),
  });
}

/** The JSONL event stream on stdout with `--json`; undefined without. */
export function jsonStreamOf(options: ExecOptions): ExecJsonStream | undefined {
  return options.json ? new ExecJsonStream(writeJsonLine) : undefined;
}

/** The status line exec ends with, dim on a terminal; undefined with `status_line = false`. */
export function execStatusLine(session: Session, env: Record<string, string>): string | undefined {
  const line = sessionStatusLine(session);
  return line === undefined
    ? undefined
    : makeStyle(colorWanted(env, Deno.stderr.isTerminal())).dim(line);
}

/** Human progress: the banner, each command and edit, warnings, on stderr. */
export function progress(env: Record<string, string>): (event: SessionEvent) => void {
  const style = makeStyle(colorWanted(env, Deno.stderr.isTerminal()));
  const calls = new ToolCallViews();
  return (event) => {
    for (const line of sessionLines(event, style, { calls })) console.error(line);
  };
}

/** `--json`: every event on stdout; warnings also on stderr, where SDK errors quote it. */
export function jsonEvents(json: ExecJsonStream): (event: SessionEvent) => void {
  return (event) => {
    if (event.type === "warning") console.error(`warning: ${terminalText(event.message)}`);
    json.onEvent(event);
  };
}

/** Why a turn that did not complete failed, with the fix. */
export function failureOf(
  outcome: Extract<
    TurnOutcome,
    { status: "failed" | "step_limit" | "budget_limit" | "repeated_call" }
  >,
): Pick<ProviderFailure, "message" | "hint"> & { reason?: string } {
  if (outcome.status === "failed") return outcome.error;
  if (outcome.status === "repeated_call") return repeatedCallFailure(outcome, "--harness");
  return limitWords(outcome);
}

function printFailure(error: Pick<ProviderFailure, "message" | "hint">): void {
  console.error(`error: ${terminalText(error.message)}`);
  if (error.hint) console.error(`hint: ${terminalText(error.hint)}`);
}

/**
 * The answer as stdout gets it: exact when piped (a script reads it), with control characters
 * made visible when stdout is a terminal (a person reads it).
 */
export function answerText(text: string, stdoutIsTerminal: boolean): string {
  return stdoutIsTerminal ? terminalText(text) : text;
}

/**
 * Prints the outcome the way exec does (the answer on stdout) and returns the exit code; the
 * status line, when given, goes last on stderr, else `tokens used: N` first.
 */
function report(
  outcome: TurnOutcome,
  opts: { tokens: number; stoppedBy?: { name: Deno.Signal; code: number }; statusLine?: string },
): number {
  const { statusLine } = opts;
  if (statusLine === undefined) console.error(`tokens used: ${opts.tokens}`);
  try {
    return reportOutcome(outcome, opts.stoppedBy);
  } finally {
    if (statusLine !== undefined) console.error(statusLine);
  }
}

function reportOutcome(
  outcome: TurnOutcome,
  stoppedBy?: { name: Deno.Signal; code: number },
): number {
  switch (outcome.status) {
    case "completed":
      console.log(answerText(outcome.finalText, Deno.stdout.isTerminal()));
      return 0;
    case "aborted":
      if (stoppedBy && stoppedBy.name !== "SIGINT") {
        console.error(`error: Stopped by ${stoppedBy.name}`);
        return stoppedBy.code;
      }
      console.error("error: Interrupted");
      return 130;
    case "step_limit":
    case "budget_limit":
    case "failed":
    case "repeated_call":
      printFailure(failureOf(outcome));
      return 1;
  }
}

/** The signals that stop a run, with the exit code each one ends it with (128 + its number). */
const STOP_SIGNALS: ReadonlyArray<[Deno.Signal, number]> = Deno.build.os === "windows"
  ? [["SIGINT", 130]]
  : [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]];

/**
 * Runs `task` with an abort signal tied to Ctrl-C, SIGTERM and SIGHUP, so that each of them
 * kills the running commands' process groups and lets the session close; a second one exits at
 * once. `stoppedBy` is the first signal's name and exit code.
 */
export async function withInterrupt<T>(
  task: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; stoppedBy?: { name: Deno.Signal; code: number } }> {
  const controller = new AbortController();
  let stoppedBy: { name: Deno.Signal; code: number } | undefined;
  const listeners = STOP_SIGNALS.map(([name, code]) => {
    const listener = () => {
      if (controller.signal.aborted) Deno.exit(stoppedBy?.code ?? code);
      stoppedBy = { name, code };
      controller.abort();
    };
    Deno.addSignalListener(name, listener);
    return [name, listener] as const;
  });
  try {
    return { value: await task(controller.signal), stoppedBy };
  } finally {
    for (const [name, listener] of listeners) Deno.removeSignalListener(name, listener);
  }
}

/**
 * `-o FILE`: the final answer, written only when the turn completed. An empty answer writes an
 * empty file and returns a warning.
 */
async function writeLastMessage(
  path: string,
  outcome: TurnOutcome,
  place: OutputPlace,
): Promise<string | undefined> {
  if (outcome.status !== "completed") return undefined;
  const file = resolve(path);
  try {
    await writeOutputText(file, outcome.finalText, place);
  } catch (error) {
    throw new UserError(`Cannot write the last message to "${file}": ${(error as Error).message}`, {
      hint: hintOf(error, "Pass -o a file in a directory you can write to"),
      cause: error,
    });
  }
  return outcome.finalText === ""
    ? `No final message to write to "${file}"; it is empty`
    : undefined;
}
