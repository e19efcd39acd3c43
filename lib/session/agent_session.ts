/**
 * Everything a mode needs before its first model request: merged config, provider, harness,
 * sandbox and approvals, and the rendered system prompt. `exec` uses it today; the REPL and the
 * editor protocols will open the same session.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EffectiveConfig } from "../config/effective.ts";
import { configHome, findProjectRoot } from "../config/load.ts";
import { secureHome } from "../config/home.ts";
import { resolveProvider } from "../config/provider.ts";
import { loadHarness, loadHarnessCandidates } from "../harness/load.ts";
import { userHarnessWarnings } from "../harness/user_harnesses.ts";
import { renderContext, type SessionContext } from "../harness/context.ts";
import { extraVariables, promptVars, usedVariables } from "../workspace/prompt_vars.ts";
import { loadCatalog, modelVendors } from "../providers/catalog.ts";
import { chooseHarness } from "../harness/select.ts";
import type { Harness, PromptVars } from "../harness/types.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { openProvider } from "../providers/mod.ts";
import type { Approver } from "../approval/hook.ts";
import { openSessionSandbox, type SessionSandbox } from "./sandbox_setup.ts";
import { type ChangeWatch, openChangeWatch } from "../workspace/held_back.ts";
import { type GitRunner, openGitRunner } from "../workspace/safe_git.ts";
import { loadSessionConfig, wireMismatch } from "./setup.ts";
import type { SessionConfig } from "./types.ts";
import { checkLocalProvider, modelChosen } from "../providers/local/models.ts";

/** The label of a sandbox and approval policy both set by `--yolo`: its warning says so. */
const YOLO = "--yolo";

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
  /** Asks the user about a tool call; absent when no one can answer. */
  ask?: Approver;
  /** Told about every refused tool call. */
  onDenied(message: string, callId: string | undefined): void;
}

/** Loads config, picks provider and harness, opens the sandbox and renders the prompt. */
export async function openAgentSession(
  config: SessionConfig,
  opts: { env: Record<string, string>; io: StartupIO },
): Promise<AgentSession> {
  const { cwd } = config;
  const home = configHome(opts.env, cwd);
  await secureHome(home);
  const watch = await openChangeWatch({ cwd, root: await findProjectRoot(cwd), home });
  try {
    return await openWatched(config, { ...opts, watch });
  } catch (error) {
    await watch.close();
    throw error;
  }
}

async function openWatched(
  session: SessionConfig,
  opts: { env: Record<string, string>; io: StartupIO; watch: ChangeWatch },
): Promise<AgentSession> {
  const { env, watch, io } = opts;
  const config = await loadSessionConfig(session, { env, isHeldBack: watch.isHeld });
  for (const warning of config.warnings) io.warn(warning);
  for (const notice of watch.notices) io.warn(notice);
  const { settings, model: resolvedModel } = resolveProvider(config, env);
  if (session.wireApi) {
    // A wire API asked for by name replaces the provider's own, Ollama's native API included.
    settings.wireApi = session.wireApi;
    delete settings.nativeApi;
  }
  const work = startWork(session, { ...opts, config, settings, resolvedModel });
  const ready = await work.ready.catch(async (error) => {
    await work.closeAll();
    throw error;
  });
  const { harness, sandbox, local } = ready;
  if (!harness.wireApis.includes(settings.wireApi)) {
    await work.closeAll();
    throw wireMismatch(harness.id, settings.wireApi, harness.wireApis);
  }
  // Text-protocol harnesses send no tools, so a model without tool support can still run them.
  if (local?.toolsProblem && !harness.protocol) {
    await work.closeAll();
    throw local.toolsProblem;
  }
  for (const note of local?.notes ?? []) io.warn(note);
  const filled = { ...ready.vars, ...ready.extra, sandbox: sandbox.promptNote };
  return {
    config,
    settings,
    model: ready.model,
    harness,
    provider: ready.provider,
    sandbox,
    context: renderContext(harness, filled),
    isHeldBack: watch.isHeld,
    promptVars: filled,
    promptVarsFor: async (h) => ({ ...filled, ...await work.extraFor(h) }),
    git: ready.git,
    ...(local?.contextWindow ? { contextWindow: local.contextWindow } : {}),
    [Symbol.asyncDispose]: async () => {
      await work.closeAll();
      await watch.close();
    },
  };
}

/** What start-up needs besides the session config. */
interface StartupInput {
  env: Record<string, string>;
  io: StartupIO;
  watch: ChangeWatch;
  config: EffectiveConfig;
  settings: ProviderSettings;
  /** The configured model; a local server may pick another when none was chosen. */
  resolvedModel: string;
}

/**
 * Starts the independent start-up work together, since it all stands between launch and the
 * first request: the sandbox, the git runner, the provider, the harness choice and the prompt
 * variables. A local server is checked meanwhile; only a model it must pick holds up the
 * harness choice. `closeAll()` closes what was opened, whatever failed.
 */
function startWork(session: SessionConfig, input: StartupInput) {
  const { env, io, watch, config, settings, resolvedModel } = input;
  const { cwd } = session;
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
    yolo: session.labels?.sandbox === YOLO,
    ask: io.ask,
    onDenied: io.onDenied,
  });
  const gitPromise = openGitRunner({ env });
  const harnessPromise = modelPromise.then((model) => pickHarness(config, settings, model, io));
  const extraFor = async (h: Harness) =>
    extraVariables(cwd, usedVariables(h), { env, git: await gitPromise, isHeldBack: watch.isHeld });
  const varsPromise = Promise.all([gitPromise, modelPromise]).then(([git, model]) =>
    promptVars(cwd, {
      model,
      home: config.home,
      sandbox: "",
      env,
      guidance: config.values.harness_guidance,
      git,
      isHeldBack: watch.isHeld,
    })
  );
  const ready = Promise.all([
    harnessPromise,
    openProvider(settings),
    sandboxPromise,
    varsPromise,
    harnessPromise.then(extraFor),
    modelPromise,
    localPromise,
    gitPromise,
  ]).then(([harness, provider, sandbox, vars, extra, model, local, git]) => ({
    harness,
    provider,
    sandbox,
    vars,
    extra,
    model,
    local,
    git,
  }));
  const closeAll = async () => {
    await sandboxPromise.then((s) => s[Symbol.asyncDispose](), () => {});
    await gitPromise.then((g) => g[Symbol.asyncDispose](), () => {});
  };
  return { ready, closeAll, extraFor };
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
