/**
 * Everything a mode needs before its first model request: merged config, provider, harness,
 * sandbox and approvals, and the rendered system prompt. `exec` uses it today; the REPL and the
 * editor protocols will open the same session.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EffectiveConfig } from "../config/effective.ts";
import { configHome, findProjectRoot, loadConfig } from "../config/load.ts";
import { secureHome } from "../config/home.ts";
import { resolveProvider } from "../config/provider.ts";
import { loadHarness, loadHarnessCandidates } from "../harness/load.ts";
import { userHarnessWarnings } from "../harness/user_harnesses.ts";
import { renderContext, type SessionContext } from "../harness/context.ts";
import { extraVariables, usedVariables } from "../workspace/prompt_vars.ts";
import { loadCatalog, modelVendors } from "../providers/catalog.ts";
import { chooseHarness } from "../harness/select.ts";
import type { Harness, PromptVars } from "../harness/types.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { openProvider } from "../providers/mod.ts";
import type { ApprovalQuestion, ApprovalReply } from "../approval/hook.ts";
import type { SharedOptions } from "../cli/cli.ts";
import { openSessionSandbox, type SessionSandbox } from "./sandbox_setup.ts";
import { type ChangeWatch, openChangeWatch } from "../workspace/held_back.ts";
import { type GitRunner, openGitRunner } from "../workspace/safe_git.ts";
import { flagOverrides, promptVars, wireMismatch } from "./setup.ts";
import { checkLocalProvider, modelChosen } from "../providers/local/models.ts";

/** The settings a session opens with: the CLI's flags, or the same keys from another front end. */
export type SessionSettings = Omit<
  SharedOptions,
  "cd" | "skipGitRepoCheck" | "verbose" | "ephemeral"
>;

/** The harness folders that ship with interpreter. */
export const BUILTIN_HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));

/** A ready session. Dispose it to stop the sandbox and the file-tool helper. */
export interface AgentSession extends AsyncDisposable {
  config: EffectiveConfig;
  settings: ProviderSettings;
  model: string;
  harness: Harness;
  provider: Provider;
  sandbox: SessionSandbox;
  /** The harness's context with this session's values: system parts and opening messages. */
  context: SessionContext;
  /** True for project files held back because they changed while an earlier session ran. */
  isHeldBack: (path: string) => boolean;
  /** What the system prompt was rendered from. */
  promptVars: PromptVars;
  /** The prompt variables another harness's templates need (for a switch of harness). */
  promptVarsFor(h: Harness): Promise<PromptVars>;
  /** Runs the git commands the agent itself issues (`/diff`). */
  git: GitRunner;
  /** The context window a local server works with (Ollama's num_ctx, LM Studio's loaded length). */
  contextWindow?: number;
}

/** How start-up talks to the front end: warnings out, approval questions in. */
export interface StartupIO {
  warn(message: string): void;
  /** Asks the user about tool call `callId`; absent when no one can answer. */
  ask?: (question: ApprovalQuestion, callId: string | undefined) => Promise<ApprovalReply>;
  /** Told about every refused tool call. */
  onDenied(message: string, callId: string | undefined): void;
}

/** Loads config, picks provider and harness, opens the sandbox and renders the prompt. */
export async function openAgentSession(
  options: SessionSettings,
  opts: { cwd: string; env: Record<string, string>; io: StartupIO },
): Promise<AgentSession> {
  const { cwd, env } = opts;
  const flags = flagOverrides(options, cwd);
  const home = configHome(env, cwd);
  await secureHome(home);
  const watch = await openChangeWatch({ cwd, root: await findProjectRoot(cwd), home });
  try {
    return await openWatched(options, { ...opts, flags, watch });
  } catch (error) {
    await watch.close();
    throw error;
  }
}

async function openWatched(
  options: SessionSettings,
  opts: {
    cwd: string;
    env: Record<string, string>;
    io: StartupIO;
    flags: ReturnType<typeof flagOverrides>;
    watch: ChangeWatch;
  },
): Promise<AgentSession> {
  const { cwd, env, watch, io } = opts;
  const config = await loadConfig({
    cwd,
    env,
    flags: opts.flags,
    overrides: options.config,
    profile: options.profile,
    isHeldBack: watch.isHeld,
  });
  for (const warning of config.warnings) io.warn(warning);
  for (const notice of watch.notices) io.warn(notice);
  const { settings, model: resolvedModel } = resolveProvider(config, env);
  if (options.chatCompletions) {
    settings.wireApi = "chat";
    delete settings.nativeApi;
  }
  // Independent start-up work runs together: it all stands between launch and the first request.
  // A local server is checked meanwhile; only a model it must pick holds up the harness choice.
  const chosen = modelChosen(config);
  const localPromise = checkLocalProvider(settings, {
    model: resolvedModel,
    chosen,
    contextWindow: config.values.model_context_window,
  });
  const modelPromise = localPromise && !chosen
    ? localPromise.then((local) => local.model)
    : Promise.resolve(resolvedModel);
  const sandboxPromise = openSessionSandbox(config.values, {
    cwd,
    home: config.home,
    env,
    yolo: options.yolo,
    ask: io.ask,
    onDenied: io.onDenied,
  });
  const gitPromise = openGitRunner({ env });
  const closeAll = async () => {
    await sandboxPromise.then((s) => s[Symbol.asyncDispose](), () => {});
    await gitPromise.then((g) => g[Symbol.asyncDispose](), () => {});
  };
  const harnessPromise = modelPromise.then((model) => pickHarness(config, settings, model, io));
  const extraFor = async (h: Harness) =>
    extraVariables(cwd, usedVariables(h), { env, git: await gitPromise, isHeldBack: watch.isHeld });
  const [harness, provider, sandbox, vars, extra, model, local] = await Promise.all([
    harnessPromise,
    openProvider(settings),
    sandboxPromise,
    Promise.all([gitPromise, modelPromise]).then(([git, model]) =>
      promptVars(cwd, {
        model,
        home: config.home,
        sandbox: "",
        env,
        guidance: config.values.harness_guidance,
        git,
        isHeldBack: watch.isHeld,
      })
    ),
    harnessPromise.then(extraFor),
    modelPromise,
    localPromise,
  ]).catch(async (error) => {
    await closeAll();
    throw error;
  });
  if (!harness.wireApis.includes(settings.wireApi)) {
    await closeAll();
    throw wireMismatch(harness.id, settings.wireApi, harness.wireApis);
  }
  // Text-protocol harnesses send no tools, so a model without tool support can still run them.
  if (local?.toolsProblem && !harness.protocol) {
    await closeAll();
    throw local.toolsProblem;
  }
  for (const note of local?.notes ?? []) io.warn(note);
  const filled = { ...vars, ...extra, sandbox: sandbox.promptNote };

  return {
    config,
    settings,
    model,
    harness,
    provider,
    sandbox,
    context: renderContext(harness, filled),
    isHeldBack: watch.isHeld,
    promptVars: filled,
    promptVarsFor: async (h) => ({ ...filled, ...await extraFor(h) }),
    git: await gitPromise,
    ...(local?.contextWindow ? { contextWindow: local.contextWindow } : {}),
    [Symbol.asyncDispose]: async () => {
      await closeAll();
      await watch.close();
    },
  };
}

/** The configured harness, or the automatic choice for this model and provider. */
async function pickHarness(
  config: EffectiveConfig,
  settings: ProviderSettings,
  model: string,
  io: StartupIO,
): Promise<Harness> {
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  const id = chooseHarness({
    configured: config.values.harness,
    model,
    providerId: settings.id,
    providerName: settings.name,
    baseUrl: settings.baseUrl,
    wireApi: settings.wireApi,
    modelVendors: config.values.harness ? [] : modelVendors(await loadCatalog(), model),
    candidates: config.values.harness ? [] : await loadHarnessCandidates(dirs),
  });
  const harness = await loadHarness(id, dirs);
  for (const warning of await userHarnessWarnings(dirs.userDir, harness.id)) io.warn(warning);
  return harness;
}
