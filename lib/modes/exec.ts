// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { UserError } from "../errors.ts";
import type { TurnOutcome } from "../loop/events.ts";
import type { SharedOptions } from "./cli.ts";
import { makeStyle, sessionLines } from "./exec_reporter.ts";
import { readAllStdin, readPrompt } from "./prompt_input.ts";
import { askOnTerminal } from "./sandbox_setup.ts";
import { openSession } from "./session.ts";
import { ToolCallViews } from "./tool_view.ts";
import { findGitRoot, resolveWorkdir } from "./session_setup.ts";

/** `interpreter exec`: runs one task to completion; progress on stderr, the answer on stdout. */
export async function runExec(
  argument: string | undefined,
  options: SharedOptions,
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
  const prompt = await readPrompt({
    argument,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    readStdin: readAllStdin,
    note: (line) => console.error(line),
  });
  const style = makeStyle(Deno.stderr.isTerminal() && !env.NO_COLOR);
  const interactive = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  const calls = new ToolCallViews();
  await using session = await openSession({
    cwd,
    env,
    settings: options,
    ephemeral: options.ephemeral,
    io: {
      onEvent: (event) => {
        for (const line of sessionLines(event, style, { calls })) console.error(line);
      },
      approve: interactive ? askOnTerminal : undefined,
    },
  });
  const { value: outcome, stoppedBy } = await withInterrupt((signal) =>
    session.prompt(prompt, signal)
  );
  return report(outcome, session.usage.inputTokens + session.usage.outputTokens, stoppedBy);
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
      console.log(outcome.finalText);
      return 0;
    case "aborted":
      if (stoppedBy && stoppedBy.name !== "SIGINT") {
        console.error(`error: Stopped by ${stoppedBy.name}`);
        return stoppedBy.code;
      }
      console.error("error: Interrupted");
      return 130;
    case "step_limit":
      console.error(`error: The model made ${outcome.limit} requests without finishing the task`);
      console.error(
        `hint: To let it continue, raise max_turn_steps (-c max_turn_steps=${outcome.limit * 2})`,
      );
      return 1;
    case "failed":
      console.error(`error: ${outcome.error.message}`);
      if (outcome.error.hint) console.error(`hint: ${outcome.error.hint}`);
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
