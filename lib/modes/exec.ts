// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { UserError } from "../errors.ts";
import { toolCatalog } from "../harness/deferred.ts";
import { runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import { emptyUsage } from "../model/message.ts";
import { type AgentSession, openAgentSession } from "./agent_session.ts";
import type { SharedOptions } from "./cli.ts";
import { makeStyle, progressLines, type Style } from "./exec_reporter.ts";
import { readAllStdin, readPrompt } from "./prompt_input.ts";
import { findGitRoot, resolveWorkdir } from "./session_setup.ts";
import { withSubagents } from "./subagent.ts";
import { disposeState } from "./_dispose_state.ts";

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
  const prompt = await readPrompt({
    argument,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    readStdin: readAllStdin,
    note: (line) => console.error(line),
  });
  await using session = await openAgentSession(options, { cwd, env });
  const style = makeStyle(Deno.stderr.isTerminal() && !env.NO_COLOR);
  const { settings, harness, sandbox } = session;
  console.error(
    style.dim(
      `workdir: ${cwd}\nmodel: ${session.model}\nprovider: ${settings.id} (${settings.wireApi})\n` +
        `harness: ${harness.id}\n${sandbox.banner}`,
    ),
  );
  for (const warning of sandbox.warnings) console.error(`warning: ${warning}`);
  return await runTask(session, { prompt, cwd, style });
}

/** Runs the task as one turn of the loop and reports how it ended. */
async function runTask(
  session: AgentSession,
  opts: { prompt: string; cwd: string; style: Style },
): Promise<number> {
  const { provider, harness, sandbox, config } = session;
  const state = {
    model: session.model,
    system: session.system,
    messages: [{
      role: "user" as const,
      blocks: [...session.openingReminders, opts.prompt].map((text) => ({
        type: "text" as const,
        text,
      })),
    }],
    usage: emptyUsage(),
    reasoningEffort: config.values.model_reasoning_effort,
  };
  const toolState = new Map<string, unknown>();
  const beforeToolCall = sandbox.beforeToolCall;
  const ctx = {
    cwd: opts.cwd,
    env: sandbox.env,
    state: toolState,
    toolCatalog: toolCatalog(harness, toolState, { guard: beforeToolCall }),
    sandbox: sandbox.sandbox,
    fs: sandbox.fs,
    scratch: sandbox.scratch,
    networkAllowed: sandbox.networkAllowed,
    home: config.home,
    isHeldBack: session.isHeldBack,
  };
  const style = opts.style;
  const { value: outcome, stoppedBy } = await withInterrupt((signal) =>
    runTurn(state, {
      provider,
      harness,
      ctx: withSubagents(
        { ...ctx, signal },
        { provider, harness, parent: state, style, beforeToolCall },
      ),
      beforeToolCall,
      maxSteps: config.values.max_turn_steps,
      emit: (event: LoopEvent) => {
        for (const line of progressLines(event, style)) console.error(line);
      },
      signal,
    })
  ).finally(() => disposeState(toolState));
  return report(outcome, state.usage.inputTokens + state.usage.outputTokens, stoppedBy);
}

function report(
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
async function withInterrupt<T>(
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
