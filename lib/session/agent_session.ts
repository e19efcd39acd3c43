/**
 * Everything a mode needs before its first model request: merged config, provider, harness,
 * sandbox and approvals, and the rendered system prompt. `exec` uses it today; the REPL and the
 * editor protocols will open the same session.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EffectiveConfig } from "../config/effective.ts";
import type { ApprovalPolicy, ConfigValues, SandboxMode } from "../config/schema.ts";
import { configHome } from "../config/load.ts";
import { resolveProvider } from "../config/provider.ts";
import { loadHarness, loadHarnessCandidates } from "../harness/load.ts";
import { userHarnessWarnings } from "../harness/user_harnesses.ts";
import { renderContext, type SessionContext } from "../harness/context.ts";
import { loadCatalog, modelVendors } from "../providers/catalog.ts";
import { takesImages } from "../providers/image_gate.ts";
import type { Harness, PromptVars, SandboxPromptFacts } from "../harness/types.ts";
import type { Provider, ProviderSettings } from "../providers/types.ts";
import { openProvider } from "../providers/mod.ts";
import type { Approver } from "../approval/hook.ts";
import {
  openSessionSandbox,
  type SessionSandbox,
  type SessionSandboxOptions,
} from "./sandbox_setup.ts";
import { type InstructionOptions, openWorkspace, type Workspace } from "../workspace/workspace.ts";
import { loadSessionConfig } from "./setup.ts";
import { leanReason, sessionHarness } from "./session_harness.ts";

export { leanReason, sessionHarness };
import { checkPresentation } from "./settings_check.ts";
import type { SessionConfig } from "./types.ts";
import type { StatusLineScript } from "../setups/settings/status_line.ts";
import { checkLocalProvider, type LocalSetup, modelChosen } from "../providers/local/models.ts";
import type { SessionSubagents } from "../setups/agents/session.ts";
import type { PermissionGate } from "../setups/permissions/gate.ts";

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
  /** The project: cwd, safe git, held-back paths, instruction files, skills. */
  workspace: Workspace;
  /** What the system prompt was rendered from. */
  promptVars: PromptVars;
  /**
   * The prompt variables harness `h`'s templates need with the settings in use (a switch of
   * harness, model or sandbox): `{{model}}`, `{{harness}}` and the sandbox texts follow them.
   */
  promptVarsFor(h: Harness, now: PromptSettings): Promise<PromptVars>;
  /** The context window a local server works with (Ollama's num_ctx, LM Studio's loaded length). */
  contextWindow?: number;
  /** Someone answers approval questions (`StartupIO.ask`); see `sessionHarness()`. */
  canAsk: boolean;
  /** Someone answers the model's questions and plans (`StartupIO.answersQuestions`). */
  answersQuestions: boolean;
  /** The sub-agents users and projects defined in our and other agents' files (issue 33). */
  subagents?: SessionSubagents;
  /** The permission rules (Claude Code's syntax) every tool call passes first (issue 33 §4). */
  permissions?: PermissionGate;
  /** The status-line script other agents' settings or `status_line_command` give (issue 33). */
  statusLineScript?: StatusLineScript;
}

/** The settings in use a harness's templates are rendered with. */
export interface PromptSettings {
  model: string;
  access: { mode: SandboxMode; policy: ApprovalPolicy };
}

/** How start-up talks to the front end: warnings out, approval questions in. */
export interface StartupIO {
  warn(message: string): void;
  /** Asks the user about a tool call; absent when no one can answer. */
  ask?: Approver;
  /** Someone answers the model's questions and plans (`SessionIO.askUser` is set). */
  answersQuestions?: boolean;
  /** Where no one can answer: what answers instead (PermissionRequest hooks), if anything. */
  answerUnasked?: SessionSandboxOptions["answerUnasked"];
  /** Told about every refused tool call. */
  onDenied(message: string, callId: string | undefined): void;
}

/** What `openAgentSession()` works with besides the session config. */
export interface AgentSessionOptions {
  env: Record<string, string>;
  io: StartupIO;
  /** An open workspace at `config.cwd` to use (and leave open); else the session opens its own. */
  workspace?: Workspace;
}

/**
 * Opens the workspace (unless given one), then loads config, picks provider and harness, opens
 * the sandbox and renders the prompt. Disposing the session closes the workspace it opened.
 */
export async function openAgentSession(
  config: SessionConfig,
  opts: AgentSessionOptions,
): Promise<AgentSession> {
  const { cwd } = config;
  const home = configHome(opts.env, cwd);
  const given = opts.workspace;
  if (given) checkGivenWorkspace(given, { cwd, home });
  const workspace = given ?? await openWorkspace(cwd, { home, env: opts.env });
  const closeWorkspace = async () => {
    if (!given) await workspace[Symbol.asyncDispose]();
  };
  try {
    return await openOn(config, { ...opts, workspace, closeWorkspace });
  } catch (error) {
    await closeWorkspace();
    throw error;
  }
}

/** Refuses a workspace of another directory or home than the session's. */
function checkGivenWorkspace(workspace: Workspace, session: { cwd: string; home: string }): void {
  if (workspace.cwd !== session.cwd || workspace.home !== session.home) {
    throw new Error(
      `Cannot open a session in "${session.cwd}" (home "${session.home}") on the workspace of ` +
        `"${workspace.cwd}" (home "${workspace.home}"): open the workspace with the session's ` +
        "directory and home",
    );
  }
}

async function openOn(
  session: SessionConfig,
  opts: AgentSessionOptions & { workspace: Workspace; closeWorkspace: () => Promise<void> },
): Promise<AgentSession> {
  const { env, workspace, io } = opts;
  const config = await loadSessionConfig(session, { env, isHeldBack: workspace.isHeldBack });
  await prepareWorkspace(workspace, config, env);
  for (const warning of config.warnings) io.warn(warning);
  for (const notice of workspace.notices) io.warn(notice);
  // Skills that do not load and name clashes are told once, at start; the walk runs meanwhile.
  const skillWarnings = workspace.skillWarnings().catch(() => []);
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
  // Defined sub-agents join the agent types the harness's sub-agent tool lists, if it has one.
  const { sandbox, local, subagents } = ready;
  const harness = subagents.offer(ready.harness);
  // The checks configure() runs on every change (settings_check.ts).
  try {
    checkPresentation(harness, settings.wireApi, local);
  } catch (error) {
    await work.closeAll();
    throw error;
  }
  for (const note of local?.notes ?? []) io.warn(note);
  for (const warning of await skillWarnings) io.warn(warning);
  const access = { mode: config.values.sandbox_mode, policy: config.values.approval_policy };
  const facts = sandboxFacts(access, sandbox);
  const filled: PromptVars = {
    ...ready.vars,
    ...subagents.promptVars(harness),
    sandboxFacts: facts,
  };
  const values = {
    model: ready.model,
    guidance: config.values.harness_guidance,
    instructions: instructionOptions(config.values),
  };
  return {
    config,
    settings,
    model: ready.model,
    harness,
    provider: ready.provider,
    sandbox,
    context: renderContext(harness, filled),
    workspace,
    promptVars: filled,
    promptVarsFor: async (h, now) => ({
      ...await workspace.promptVars(h, { ...values, model: now.model }),
      ...subagents.promptVars(h),
      sandboxFacts: sandboxFacts(now.access, sandbox),
    }),
    ...(local?.contextWindow ? { contextWindow: local.contextWindow } : {}),
    canAsk: io.ask !== undefined,
    answersQuestions: io.answersQuestions === true,
    subagents,
    permissions: ready.permissions,
    [Symbol.asyncDispose]: async () => {
      try {
        await work.closeAll();
      } finally {
        await opts.closeWorkspace();
      }
    },
  };
}

/**
 * Before any command can run: watches the fallback instruction names (so that what one writes
 * under them is held back next time), sets the root markers, and adds the custom commands a
 * model may invoke to the skills.
 */
async function prepareWorkspace(
  workspace: Workspace,
  config: EffectiveConfig,
  env: Record<string, string>,
): Promise<void> {
  await workspace.watchInstructionNames(config.values.project_doc_fallback_filenames ?? []);
  workspace.useRootMarkers(config.values.project_root_markers);
  const held = { env, isHeldBack: workspace.isHeldBack };
  workspace.addSkills(async () =>
    (await import("./command_skills.ts")).commandSkills(config, held)
  );
}

/** How AGENTS.md files are found, from config (`project_root_markers`, `project_doc_*`). */
function instructionOptions(values: ConfigValues): InstructionOptions {
  return {
    rootMarkers: values.project_root_markers,
    fallbackNames: values.project_doc_fallback_filenames,
    maxBytes: values.project_doc_max_bytes,
  };
}

/** What the harness's sandbox texts word into `{{sandbox}}`. */
function sandboxFacts(
  access: PromptSettings["access"],
  sandbox: SessionSandbox,
): SandboxPromptFacts {
  return {
    mode: access.mode,
    policy: access.policy,
    description: sandbox.sandbox.status.description,
    enforced: sandbox.sandbox.status.enforced,
  };
}

/** What start-up needs besides the session config. */
interface StartupInput {
  env: Record<string, string>;
  io: StartupIO;
  workspace: Workspace;
  config: EffectiveConfig;
  settings: ProviderSettings;
  /** The configured model; a local server may pick another when none was chosen. */
  resolvedModel: string;
}

/**
 * Starts the independent start-up work together, since it all stands between launch and the
 * first request: the sandbox, the provider, the harness choice and the prompt variables (which
 * wait for the harness: it names the ones it uses). A local server is checked meanwhile; the
 * harness choice waits for what it says of the model (its family, size and window).
 * `closeAll()` closes what was opened, whatever failed.
 */
function startWork(session: SessionConfig, input: StartupInput) {
  const { env, io, workspace, config, settings, resolvedModel } = input;
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
  // Permission rules first: their Read denies are masked in the sandbox, bare denies hide tools.
  const permissions = import("../setups/permissions/open.ts").then((m) =>
    m.openSessionPermissions(config, { env, isHeldBack: workspace.isHeldBack, warn: io.warn })
  );
  const sandboxOptions = {
    cwd,
    home: config.home,
    env,
    fullAccessLabel: session.labels?.sandbox,
    requireSandbox: session.requireSandbox,
    ask: io.ask,
    answerUnasked: io.answerUnasked,
    onDenied: io.onDenied,
  };
  const sandboxPromise = permissions.then(({ masked }) =>
    openSessionSandbox(config.values, { ...sandboxOptions, masked })
  );
  const harnessPromise = Promise.all([modelPromise, localPromise, permissions]).then((
    [model, local, { gate }],
  ) => pickHarness(config, { settings, model, io, local, hidden: gate.hidden }));
  const varsPromise = Promise.all([harnessPromise, modelPromise]).then(([harness, model]) =>
    workspace.promptVars(harness, {
      model,
      guidance: config.values.harness_guidance,
      instructions: instructionOptions(config.values),
      warn: io.warn,
    })
  );
  // Sub-agents defined in our and other agents' files (lib/setups/agents, loaded when used).
  const subagentsPromise = import("../setups/agents/session.ts").then((m) =>
    m.sessionSubagents(config, { env, isHeldBack: workspace.isHeldBack, warn: io.warn })
  );
  const ready = Promise.all([
    harnessPromise,
    openProvider(settings),
    sandboxPromise,
    varsPromise,
    modelPromise,
    localPromise,
    subagentsPromise,
    permissions,
  ]).then(([harness, provider, sandbox, vars, model, local, subagents, { gate }]) => ({
    harness,
    provider,
    sandbox,
    vars,
    model,
    local,
    subagents,
    permissions: gate,
  }));
  const closeAll = async () => {
    await sandboxPromise.then((s) => s[Symbol.asyncDispose](), () => {});
  };
  return { ready, closeAll };
}

/**
 * The configured harness, or the automatic choice for this model and provider (by the family a
 * local server reports when the name matches no harness), in its lean surface when the config
 * or the model's size calls for it.
 */
async function pickHarness(
  config: EffectiveConfig,
  opts: {
    settings: ProviderSettings;
    model: string;
    io: StartupIO;
    local?: LocalSetup;
    hidden?: (capability: string) => boolean;
  },
): Promise<Harness> {
  const { settings, model, local } = opts;
  const dirs = { builtinDir: BUILTIN_HARNESSES, userDir: join(config.home, "harnesses") };
  const catalog = await loadCatalog();
  const configured = config.values.harness;
  const { chooseHarnessWhy, routeLoadError } = await import("../harness/routes.ts");
  const choice = chooseHarnessWhy({
    configured,
    routes: config.values.harness_routes,
    model,
    providerId: settings.id,
    providerName: settings.name,
    baseUrl: settings.baseUrl,
    wireApi: settings.wireApi,
    modelVendors: configured ? [] : modelVendors(catalog, model),
    modelFamilies: local?.families,
    candidates: configured ? [] : await loadHarnessCandidates(dirs),
  });
  const lean = leanReason(config.values, { catalog, settings, model, local });
  const route = {
    model,
    wire: settings.wireApi,
    takesImages: takesImages(catalog, settings, model),
  };
  const harness = sessionHarness(
    await loadHarness(choice.id, dirs).catch((e) => Promise.reject(routeLoadError(e, choice))),
    config.values,
    {
      lean,
      canAsk: opts.io.ask !== undefined,
      route,
      answersQuestions: opts.io.answersQuestions === true,
      hidden: opts.hidden,
    },
  );
  for (const warning of await userHarnessWarnings(dirs.userDir, harness.id)) opts.io.warn(warning);
  harness.choiceReason = choice.reason;
  return harness;
}
