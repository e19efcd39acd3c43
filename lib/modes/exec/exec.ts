// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import { configHome } from "../../config/load.ts";
import { UserError } from "../../errors.ts";
import type { TurnOutcome } from "../../loop/events.ts";
import type { Usage } from "../../model/message.ts";
import type { ProviderFailure } from "../../model/stream.ts";
import { uuidV7 } from "../../store/mod.ts";
import type { ExecOptions } from "../../cli/exec_cli.ts";
import { imagePaths, readImages } from "./exec_images.ts";
import { ExecJsonStream, writeJsonLine } from "./exec_json.ts";
import { makeStyle, repeatedCallFailure, sessionLines } from "../term/progress.ts";
import { readOutputSchema } from "../../session/structured_output.ts";
import { type ExecTurnResult, findResumed, runExecTurn, writeLastMessage } from "./exec_turn.ts";
import { readAllStdin, readPrompt } from "./prompt_input.ts";
import { askOnTerminal } from "../../session/sandbox_setup.ts";
import { openSession, type SessionEvent } from "../../session/open.ts";
import { ToolCallViews } from "../../session/tool_view.ts";
import { findGitRoot, resolveWorkdir } from "../../session/setup.ts";

/**
 * `interpreter exec` and `exec resume`: runs one task to completion. Progress goes to stderr and
 * the answer to stdout, or with `--json` every event to stdout as JSONL.
 */
export async function runExec(
  argument: string | undefined,
  options: ExecOptions,
): Promise<number> {
  const env = Deno.env.toObject();
  const cwd = await resolveWorkdir(options.cd);
  if (!options.skipGitRepoCheck && !options.yolo && !(await findGitRoot(cwd))) {
    throw new UserError(
      "Not inside a trusted directory and --skip-git-repo-check was not specified",
      { hint: "Run inside a git repository, or pass --skip-git-repo-check" },
    );
  }
  if (options.review) {
    const { runExecReview } = await import("./review_exec.ts");
    return await runExecReview(options.review, { cwd, env, options });
  }
  // Files are read before anything else: the Codex SDK deletes the schema file after the turn.
  const schema = options.outputSchema ? await readOutputSchema(options.outputSchema) : undefined;
  const images = await readImages(imagePaths(options.image ?? []));
  const resumed = options.resume
    ? await findResumed(options.resume, cwd, configHome(env, cwd))
    : undefined;
  // A resumed session takes its prompt as given, with no <stdin> block appended.
  const prompt = options.resume && argument !== undefined && argument !== "-"
    ? argument
    : await readExecPrompt(argument);
  const json = jsonStreamOf(options);
  const interactive = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  await using session = await openSession({
    cwd,
    env,
    settings: options,
    ephemeral: options.ephemeral,
    resume: resumed?.file,
    io: {
      onEvent: json ? jsonEvents(json) : progress(env),
      approve: interactive ? askOnTerminal : undefined,
    },
  });
  const { value: result, stoppedBy } = await withInterrupt((signal) => {
    json?.threadStarted(session.status().sessionId ?? resumed?.id ?? uuidV7());
    json?.turnStarted();
    return runExecTurn(session, [...images, { type: "text", text: prompt }], signal, schema);
  });
  const { outputLastMessage } = options;
  return await finishExec(result, { json, usage: session.usage, stoppedBy, outputLastMessage });
}

/** How an exec run ends: `-o FILE`, then the outcome as JSONL or for a person; the exit code. */
export async function finishExec(
  result: ExecTurnResult,
  run: {
    json?: ExecJsonStream;
    usage: Usage;
    stoppedBy?: { name: Deno.Signal; code: number };
    outputLastMessage?: string;
  },
): Promise<number> {
  const { json, usage, stoppedBy } = run;
  if (run.outputLastMessage) {
    const warning = await writeLastMessage(run.outputLastMessage, result.outcome);
    if (warning) console.error(`warning: ${terminalText(warning)}`);
  }
  if (!json) return report(result.outcome, usage.inputTokens + usage.outputTokens, stoppedBy);
  const { outcome } = result;
  if (outcome.status === "aborted") return stoppedBy?.code ?? 130;
  if (outcome.status === "completed") {
    json.agentMessage(outcome.finalText);
    json.turnCompleted(usage);
    return 0;
  }
  const error = failureOf(outcome);
  printFailure(error);
  json.turnFailed(error.message, {
    providerError: outcome.status === "failed" && !result.schemaViolation,
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
  return options.json || options.experimentalJson ? new ExecJsonStream(writeJsonLine) : undefined;
}

/** Human progress: the banner, each command and edit, warnings, on stderr. */
export function progress(env: Record<string, string>): (event: SessionEvent) => void {
  const style = makeStyle(Deno.stderr.isTerminal() && !env.NO_COLOR);
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
function failureOf(
  outcome: Extract<TurnOutcome, { status: "failed" | "step_limit" | "repeated_call" }>,
): Pick<ProviderFailure, "message" | "hint"> {
  if (outcome.status === "failed") return outcome.error;
  if (outcome.status === "repeated_call") return repeatedCallFailure(outcome, "--harness");
  return {
    message: `The model made ${outcome.limit} requests without finishing the task`,
    hint: `To let it continue, raise max_turn_steps (-c max_turn_steps=${outcome.limit * 2})`,
  };
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

/** Prints the outcome the way exec does (the answer on stdout) and returns the exit code. */
export function report(
  outcome: TurnOutcome,
  tokens: number,
  stoppedBy?: { name: Deno.Signal; code: number },
): number {
  console.error(`tokens used: ${tokens}`);
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
