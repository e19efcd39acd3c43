/**
 * Opens the one session object every front end drives, in two steps: `resolveOpening()`
 * (opening.ts) runs the trust check and the resume lookup, and `openSession()` takes its
 * `Opening` and a small I/O seam through config, provider, harness, sandbox and the session file
 * to a `LiveSession` (live_session.ts).
 */
import { loadHarness } from "../harness/load.ts";
import { bareContext, withOpeningContext, withoutContext } from "../harness/context.ts";
import { translateHistory } from "../harness/translate.ts";
import type { LoopState } from "../loop/agent_loop.ts";
import { emptyUsage } from "../model/message.ts";
import { McpServers } from "../mcp/mcp_servers.ts";
import { loadCatalog } from "../providers/catalog.ts";
import { Resources } from "../tools/resources.ts";
import { restoreState, snapshotState } from "../tools/session_state.ts";
import { type AgentSession, openAgentSession } from "./agent_session.ts";
import { harnessDirs } from "./choices.ts";
import { LiveSession } from "./live_session.ts";
import { limitsOf, type SessionState } from "./session_parts.ts";
import { openRecorder, type SessionRecorder } from "./recorder.ts";
import { SessionRelay } from "./relay.ts";
import { isOpening, type Opening, resolveOpening } from "./opening.ts";
import { withSettingsInUse } from "./resume.ts";
import { requestOptions, wireLabel } from "./setup.ts";
import { harnessSurface, requireBudgetPrice } from "./status.ts";
import { startupModelNote } from "./settings_check.ts";
import { SessionHooks } from "./session_hooks.ts";
import { settleDefinitionTrust } from "./trust.ts";
import type { Session, SessionConfig, SessionDeps, SessionInfo, SessionIO } from "./types.ts";

export type {
  DefinitionTrustQuestion,
  PromptOptions,
  PromptOutcome,
  ReasoningEffort,
  ResumeTarget,
  Session,
  SessionConfig,
  SessionEvent,
  SessionInfo,
  SessionIO,
  SessionStatus,
  ToolSource,
} from "./types.ts";
export { TurnInProgressError, UntrustedDirectoryError } from "./errors.ts";
export {
  freshOpening,
  type Opening,
  type OpeningChanges,
  type OpeningRequest,
  reconfigured,
  resolveOpening,
  resumedIn,
  type ResumedSession,
  settingsConfig,
} from "./opening.ts";
export {
  AmbiguousSessionError,
  NotASessionIdError,
  type SessionCandidate,
  SessionNotFoundError,
} from "./opening_errors.ts";

/**
 * Opens the session `from` resolved (`resolveOpening()`): config, provider, harness, sandbox and
 * approvals, the system prompt and the session file, continuing the saved session it found. A
 * bare `SessionConfig` is resolved first with the command line's rules (front ends resolve it
 * themselves, to word the errors their way). `deps.env` is the environment it sees (default the
 * process's); `deps.workspace` the workspace it works in (default: one it opens, and closes when
 * disposed).
 */
export async function openSession(
  from: Opening | SessionConfig,
  io: SessionIO,
  deps: SessionDeps = {},
): Promise<Session> {
  const opening = isOpening(from) ? from : await resolveOpening({ config: from, env: deps.env });
  const env = { ...deps.env ?? Deno.env.toObject(), ...opening.env };
  const config: SessionConfig = opening.config;
  const { saved, settings } = opening.resumed ?? {};
  const relay = new SessionRelay(io, config.cwd);
  const catalogRead = loadCatalog();
  const agent = await openAgentSession(settings ? withSettingsInUse(config, settings) : config, {
    env,
    io: relay.startupIO(),
    workspace: deps.workspace,
  });
  const mcp = await startMcpServers(agent, { config, io, env }).catch(async (error) => {
    await agent[Symbol.asyncDispose]();
    throw error;
  });
  try {
    await mcp.requireStarted();
    const catalog = await catalogRead;
    const limits = limitsOf(
      catalog,
      agent.config.values,
      agent.settings,
      agent.model,
      agent.contextWindow,
    );
    await requireBudgetPrice({ catalog, live: { agent } }, agent);
    const info: SessionInfo = { ...infoOf(agent, opening), contextNote: limits.guessNote };
    io.onEvent({ type: "session_started", info });
    const warn = (message: string) => io.onEvent({ type: "warning", message });
    [...agent.sandbox.warnings, ...opening.notes ?? []].forEach(warn);
    // A start-up model no list has is noted, never refused (configure() refuses one by hand).
    const unlisted = startupModelNote({ ...agent, guessNote: limits.guessNote }, catalog);
    if (unlisted) io.onEvent({ type: "warning", message: unlisted });
    // Other agents' settings (issue 33): env for commands, a status-line script; once trust is settled.
    const { applySetupSettings } = await import("../setups/settings/session.ts");
    agent.statusLineScript = await applySetupSettings(agent.config, agent.sandbox, {
      env,
      isHeldBack: agent.workspace.isHeldBack,
      bypassTrust: config.bypassDefinitionTrust,
      warn,
    });
    const hooks = await SessionHooks.open(agent, { config, env, relay, warn });
    const state = freshState(agent, config, limits);
    const recorder = await openRecorder(agent, state.loop, {
      cwd: config.cwd,
      origin: config.origin ?? "exec",
      saved,
      ephemeral: config.ephemeral,
      warn: (message) => io.onEvent({ type: "warning", message }),
    });
    relay.recordTo(recorder);
    await restore(state, { agent, recorder, config, io }).catch(async (error) => {
      await recorder.close();
      throw error;
    });
    state.loop.requestOptions = {
      ...await requestOptions(agent.config.values, recorder.id),
      maxOutputCap: limits.maxOutput,
    };
    const resources = new Resources();
    const live = { agent, provider: agent.provider, recorder, resources, relay, mcp };
    const sources = [...(deps.toolSources ?? []), ...mcp.sources];
    const toolSources = agent.permissions?.visibleSources(sources) ?? sources;
    const parts = { config, env, io, info, catalog, state, live, toolSources, hooks };
    const session = new LiveSession(parts);
    relay.viewsIn(() => session.settings.cwd);
    await hooks.started(saved ? "resume" : "startup");
    return session;
  } catch (error) {
    await mcp[Symbol.asyncDispose]();
    await agent[Symbol.asyncDispose]();
    throw error;
  }
}

/**
 * Starts the MCP servers of the session `agent` opened, once the user was asked (through `io`)
 * about the project's untrusted definitions; the servers that stay untrusted do not start.
 */
async function startMcpServers(
  agent: AgentSession,
  opts: { config: SessionConfig; io: SessionIO; env: Record<string, string> },
): Promise<McpServers> {
  const warn = (message: string) => opts.io.onEvent({ type: "warning", message });
  const untrusted = await settleDefinitionTrust(agent.config, {
    session: opts.config,
    io: opts.io,
    env: opts.env,
    isHeldBack: agent.workspace.isHeldBack,
    warn,
  });
  // The project's allow rules trusted just now apply too (lib/setups/permissions).
  const { settlePermissionTrust } = await import("../setups/permissions/open.ts");
  const bypass = opts.config.bypassDefinitionTrust === true;
  await settlePermissionTrust(agent, { env: opts.env, bypass, warn });
  // Other agents' servers (.mcp.json, .gemini/settings.json, ...) join ours (lib/setups/mcp).
  const { sessionMcpServers, sourceText } = await import("../setups/mcp/servers.ts");
  const joined = await sessionMcpServers(agent.config, {
    env: opts.env,
    isHeldBack: agent.workspace.isHeldBack,
  });
  for (const message of joined.warnings) warn(message);
  return new McpServers(joined.servers, {
    home: agent.config.home,
    env: opts.env,
    cwd: opts.config.cwd,
    warn,
    untrusted,
    sources: new Map([...joined.sources].map(([id, source]) => [id, sourceText(source)])),
  });
}

/** What the banner and `/status` show of a ready agent session. */
function infoOf(agent: AgentSession, opening: Opening): SessionInfo {
  return {
    cwd: opening.config.cwd,
    ...(opening.worktree ? { worktree: opening.worktree } : {}),
    model: agent.model,
    provider: agent.settings.id,
    wireApi: wireLabel(agent.settings),
    harness: agent.harness.id,
    ...harnessSurface(agent.harness),
    harnessDir: agent.harness.dir,
    sandbox: agent.sandbox.banner,
  };
}

/** The state of a session with no history yet. */
function freshState(
  agent: AgentSession,
  config: SessionConfig,
  limits: SessionState["limits"],
): SessionState {
  // A session with its own instructions (a review) gets none of the harness's context.
  const context = config.instructions
    ? bareContext(config.instructions(agent.harness, agent.promptVars))
    : agent.context;
  const loop: LoopState = {
    model: agent.model,
    system: context.system,
    messages: [],
    usage: emptyUsage(),
    reasoningEffort: agent.config.values.model_reasoning_effort,
  };
  const toolState = new Map<string, unknown>();
  return {
    loop,
    harness: agent.harness,
    context,
    route: { providerId: agent.settings.id, wireApi: agent.settings.wireApi },
    limits,
    toolState,
    savedToolState: JSON.stringify(snapshotState(toolState)),
    repairs: 0,
  };
}

/**
 * For a resumed session: its tool state, and its history in the words of this session's harness
 * when it was made with another one.
 */
async function restore(
  state: SessionState,
  from: { agent: AgentSession; recorder: SessionRecorder; config: SessionConfig; io: SessionIO },
): Promise<void> {
  const { agent, recorder, config, io } = from;
  const saved = recorder.resumedFrom;
  if (recorder.resumedToolState && saved) {
    const restored = restoreState(recorder.resumedToolState, {
      note: (message) => io.onEvent({ type: "warning", message }),
      from: `session "${saved.file}", line ${saved.line}`,
      workspace: {
        cwd: config.cwd,
        realCwd: await agent.sandbox.fs.realPath(config.cwd).catch(() => config.cwd),
        recordedCwd: saved.cwd,
      },
    });
    for (const [key, value] of restored) state.toolState.set(key, value);
    state.savedToolState = JSON.stringify(snapshotState(state.toolState));
  }
  const madeWith = recorder.resumedHarness;
  if (!madeWith || madeWith === state.harness.id) return;
  const before = await loadHarness(madeWith, harnessDirs(agent)).catch(() => undefined);
  if (!before) return;
  const { messages } = state.loop;
  const translated = translateHistory(withoutContext(messages), before, state.harness);
  messages.splice(0, messages.length, ...withOpeningContext(state.context, translated));
}
