// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../errors.ts";
import { loadConfig } from "../config/load.ts";
import { resolveProvider } from "../config/provider.ts";
import { listHarnessIds, loadHarness } from "../harness/load.ts";
import { chooseHarness } from "../harness/select.ts";
import { toolCatalog } from "../harness/deferred.ts";
import { renderSystemPrompt } from "../harness/prompt.ts";
import { runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import { emptyUsage } from "../model/message.ts";
import { openProvider } from "../providers/mod.ts";
import type { SharedOptions } from "./cli.ts";
import { makeStyle, progressLines } from "./exec_reporter.ts";
import { readAllStdin, readPrompt } from "./prompt_input.ts";
import {
  findGitRoot,
  flagOverrides,
  promptVars,
  resolveWorkdir,
  wireMismatch,
} from "./session_setup.ts";
import { askOnTerminal, openSessionSandbox } from "./sandbox_setup.ts";
import { withSubagents } from "./subagent.ts";

const BUILTIN_HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

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
  const config = await loadConfig({
    cwd,
    env,
    flags: flagOverrides(options, cwd),
    overrides: options.config,
    profile: options.profile,
  });
  for (const warning of config.warnings) console.error(`warning: ${warning}`);
  const { settings, model } = resolveProvider(config, env);
  if (options.chatCompletions) settings.wireApi = "chat";
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  // Independent start-up work runs together: it all stands between launch and the first request.
  const sessionPromise = openSessionSandbox(config.values, {
    cwd,
    env,
    yolo: options.yolo,
    ask: Deno.stdin.isTerminal() && Deno.stderr.isTerminal() ? askOnTerminal : undefined,
    onDenied: (message) => console.error(`denied: ${message.split("\n")[0]}`),
  });
  const [harness, provider, session, vars] = await Promise.all([
    listHarnessIds(dirs).then((available) =>
      loadHarness(
        chooseHarness({
          configured: config.values.harness,
          model,
          providerId: settings.id,
          providerName: settings.name,
          baseUrl: settings.baseUrl,
          wireApi: settings.wireApi,
          available,
        }),
        dirs,
      )
    ),
    openProvider(settings),
    sessionPromise,
    promptVars(cwd, {
      model,
      home: config.home,
      sandbox: "",
      env,
      guidance: config.values.harness_guidance,
    }),
  ]).catch(async (error) => {
    await sessionPromise.then((s) => s[Symbol.asyncDispose](), () => {});
    throw error;
  });
  if (!harness.wireApis.includes(settings.wireApi)) {
    await session[Symbol.asyncDispose]();
    throw wireMismatch(harness.id, settings.wireApi, harness.wireApis);
  }
  const style = makeStyle(Deno.stderr.isTerminal() && !env.NO_COLOR);
  console.error(
    style.dim(
      `workdir: ${cwd}\nmodel: ${model}\nprovider: ${settings.id} (${settings.wireApi})\n` +
        `harness: ${harness.id}\n${session.banner}`,
    ),
  );
  for (const warning of session.warnings) console.error(`warning: ${warning}`);
  const system = renderSystemPrompt(harness, { ...vars, sandbox: session.promptNote });
  const state = {
    model,
    system,
    messages: [{ role: "user" as const, blocks: [{ type: "text" as const, text: prompt }] }],
    usage: emptyUsage(),
    reasoningEffort: config.values.model_reasoning_effort,
  };
  const toolState = new Map<string, unknown>();
  const catalog = toolCatalog(harness, toolState, { guard: session.beforeToolCall });
  const outcome = await withInterrupt((signal) =>
    runTurn(state, {
      provider,
      harness,
      ctx: withSubagents({
        cwd,
        signal,
        env: session.env,
        state: toolState,
        toolCatalog: catalog,
        sandbox: session.sandbox,
        fs: session.fs,
        networkAllowed: session.networkAllowed,
        home: config.home,
      }, { provider, harness, parent: state, style, beforeToolCall: session.beforeToolCall }),
      beforeToolCall: session.beforeToolCall,
      emit: (event: LoopEvent) => {
        for (const line of progressLines(event, style)) console.error(line);
      },
      signal,
    })
  ).finally(async () => {
    await disposeAll(toolState.values());
    await session[Symbol.asyncDispose]();
  });
  return report(outcome, state.usage.inputTokens + state.usage.outputTokens);
}

function report(outcome: TurnOutcome, tokens: number): number {
  console.error(`tokens used: ${tokens}`);
  switch (outcome.status) {
    case "completed":
      console.log(outcome.finalText);
      return 0;
    case "aborted":
      console.error("error: Interrupted");
      return 130;
    case "step_limit":
      console.error(`error: The model made ${outcome.limit} requests without finishing the task`);
      console.error("hint: Split the task into smaller steps, or try a stronger model");
      return 1;
    case "failed":
      console.error(`error: ${outcome.error.message}`);
      if (outcome.error.hint) console.error(`hint: ${outcome.error.hint}`);
      return 1;
  }
}

/** Ends what tools left running in session state: background jobs, terminals. */
async function disposeAll(values: Iterable<unknown>): Promise<void> {
  for (const value of values) {
    if (typeof value !== "object" || value === null) continue;
    const v = value as Partial<AsyncDisposable & Disposable>;
    if (typeof v[Symbol.asyncDispose] === "function") await v[Symbol.asyncDispose]!();
    else if (typeof v[Symbol.dispose] === "function") v[Symbol.dispose]!();
  }
}

/** Runs `task` with an abort signal tied to Ctrl-C; a second Ctrl-C exits at once. */
async function withInterrupt<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) Deno.exit(130);
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  try {
    return await task(controller.signal);
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
  }
}
