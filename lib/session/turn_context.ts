/**
 * What one turn of a `LiveSession` runs with, apart from the history: the context its tools
 * work in (sandbox, files, sub-agents, plan mode), the hooks every tool call passes and where
 * MCP tools are placed.
 */
import { DEFAULT_MCP_DEFER_TOKENS } from "../config/schema.ts";
import { loopGuardLimits } from "../hooks/loop_guard.ts";
import { sessionToolHooks } from "../hooks/session_chain.ts";
import type { ToolHooks } from "../loop/tool_hooks.ts";
import type { TurnOutcome } from "../loop/events.ts";
import { takesImages } from "../providers/image_gate.ts";
import type { SourcePlacement } from "../loop/tool_sources.ts";
import type { AgentPool as AgentPoolSeam, TurnContext, WorktreeControl } from "../tools/types.ts";
import { configureSession } from "./configure.ts";
import { webSearchBackendOf } from "../tools/_search_backends.ts";
import { artifactStore } from "./artifact_store.ts";
import type { PlanMode } from "./plan_mode.ts";
import type { SessionHooks } from "./session_hooks.ts";
import type { SessionParts } from "./session_parts.ts";
import { resourceKey, type Resources } from "../tools/resources.ts";
import type { AgentPool, AgentPoolDriver, PooledAgent } from "./agent_pool.ts";
import { catalogProvider } from "../providers/catalog.ts";
import {
  definedShape,
  makeSubagentRunner,
  makeSubagentStep,
  type SubagentOptions,
  subagentState,
} from "./subagent.ts";

/** The parts of a session a turn's tools are set up from. */
export interface TurnSetup {
  parts: SessionParts;
  plan: PlanMode;
  /** The tool call running now, which a sub-agent's events belong to. */
  currentCall: () => string;
  /** Permission rules allowed for the running turn only (`PromptOptions.allowedRules`). */
  turnAllow?: () => readonly string[] | undefined;
  /** The turn's end when the session's spending limit is reached (`max_budget_usd`). */
  budgetStop?: () => TurnOutcome | undefined;
}

/** The links every tool call passes: approval, the harness's reminders, the loop guard. */
export function toolHooksOf(t: TurnSetup): ToolHooks {
  const { agent } = t.parts.live;
  const values = agent.config.values;
  return t.plan.hooks(sessionToolHooks({
    approve: agent.sandbox.beforeToolCall,
    loopGuard: loopGuardLimits(values),
    mcpServers: values.mcp_servers,
    userHooks: t.parts.hooks.toolLink,
    permissions: agent.permissions && ((check) =>
      agent.permissions!.wrap(check, {
        cwd: () => t.parts.config.cwd,
        turnAllow: t.turnAllow?.(),
        onDenied: (reason, callId) => t.parts.io.onEvent({ type: "tool_denied", callId, reason }),
      })),
  }));
}

/** MCP tools go behind the harness's tool search once they pass `mcp_defer_tokens`. */
export function sourcePlacementOf(t: TurnSetup): SourcePlacement {
  const values = t.parts.live.agent.config.values;
  return { deferAboveTokens: values.mcp_defer_tokens ?? DEFAULT_MCP_DEFER_TOKENS };
}

/**
 * The session's worktree control (worktree_control.ts, loaded on first use: few sessions use
 * worktrees). Its switch goes through `configureSession()` itself: `Session.configure()` waits
 * for the turn, and this runs in one.
 */
function sessionWorktrees(t: TurnSetup): WorktreeControl {
  const { agent, resources } = t.parts.live;
  const control = async () =>
    (await import("./worktree_control.ts")).worktreeControl({
      resources,
      settings: () => ({ cwd: t.parts.config.cwd, writableRoots: agent.sandbox.writableRoots }),
      configure: (update) => configureSession({ parts: t.parts, plan: t.plan }, update),
      git: { env: agent.sandbox.env, home: agent.config.home },
    });
  return {
    enter: async (req) => await (await control()).enter(req),
    exit: async (req) => await (await control()).exit(req),
  };
}

/** What the tools of one turn work with. */
export function turnContextOf(
  t: TurnSetup,
  signal: AbortSignal,
  toolHooks: ToolHooks,
): TurnContext {
  const p = t.parts;
  const { agent, relay, resources } = p.live;
  const { sandbox, config } = agent;
  const { harness, toolState } = p.state;
  const ctx: TurnContext = {
    // Read at each call: a worktree tool may move the session during the turn.
    get cwd() {
      return p.config.cwd;
    },
    env: sandbox.env,
    state: toolState,
    resources,
    signal,
    get sandbox() {
      return t.plan.sandbox(sandbox.sandbox);
    },
    fs: sandbox.fs,
    scratch: sandbox.scratch,
    networkAllowed: sandbox.networkAllowed,
    takesImages: takesImages(p.catalog, p.live.provider.settings, p.state.loop.model),
    tokensUsed: () => p.state.loop.usage.inputTokens + p.state.loop.usage.outputTokens,
    webFetch: { allowedHosts: config.values.web_fetch?.allowed_hosts ?? [] },
    webSearch: webSearchBackendOf(config.values.web_search_backend, p.env),
    artifacts: artifactStore(config.home, p.live.recorder.id),
    home: config.home,
    mcp: p.live.mcp,
    isHeldBack: agent.workspace.isHeldBack,
    skills: () => agent.workspace.skills(sandbox.fs),
    askUser: relay.askUser(),
    // A plan needs someone to approve it.
    planMode: p.io.askUser ? t.plan.control() : undefined,
    worktrees: sessionWorktrees(t),
  };
  const subagents: SubagentOptions = {
    provider: p.live.provider,
    harness,
    parent: p.state.loop,
    toolHooks,
    toolSources: p.toolSources,
    sourcePlacement: sourcePlacementOf(t),
    emit: (event, label, callId) =>
      p.io.onEvent({ type: "subagent", parentCallId: callId ?? t.currentCall(), label, event }),
    hooks: p.hooks.subagentHooks(),
    defined: agent.subagents?.runtime,
    offeredModels: () =>
      catalogProvider(p.catalog, p.live.provider.settings)?.models.map((m) => m.id) ?? [],
    warn: (message) => p.io.onEvent({ type: "warning", message }),
    budgetStop: t.budgetStop,
  };
  ctx.runSubagent = makeSubagentRunner(ctx, subagents);
  ctx.agents = lazyAgentPool(resources, p.hooks, {
    step: makeSubagentStep(ctx, subagents),
    open: async (agent, prompt) => {
      const context = await subagents.hooks?.started(agent, signal) ?? [];
      const shape = definedShape(subagents, agent.agentType);
      for (const note of shape?.notes ?? []) subagents.warn?.(note);
      return subagentState(subagents.parent, context, prompt, shape);
    },
    changed: (agent) => void saveTrajectory(p, agent),
  });
  return ctx;
}

/** Where a session keeps its pool of persistent sub-agents (in its `Resources`). */
const AGENT_POOL = resourceKey<AgentPool>("session.agent_pool");

/**
 * The session's pool of persistent sub-agents as the tools reach it: loaded and made on the
 * first call (most sessions never start one), then driven by the latest turn that uses it.
 */
function lazyAgentPool(
  resources: Resources,
  hooks: SessionHooks,
  driver: AgentPoolDriver,
): AgentPoolSeam {
  const pool = async (): Promise<AgentPool> => {
    const existing = resources.get(AGENT_POOL);
    if (existing) {
      existing.drive(driver);
      return existing;
    }
    const { AgentPool } = await import("./agent_pool.ts");
    const made = resources.get(AGENT_POOL) ?? new AgentPool(driver);
    resources.set(AGENT_POOL, made);
    hooks.agentNotices = (signal) => made.settle(signal);
    return made;
  };
  return {
    spawn: async (req) => (await pool()).spawn(req),
    send: async (target, message, opts) => (await pool()).send(target, message, opts),
    interrupt: async (target) => (await pool()).interrupt(target),
    wait: async (targets, ms, signal) => (await pool()).wait(targets, ms, signal),
    close: async (target) => (await pool()).close(target),
    resume: async (target) => (await pool()).resume(target),
    list: async () => (await pool()).list(),
  };
}

/** Saves a sub-agent's trajectory beside the session file (nothing for an unsaved session). */
async function saveTrajectory(p: SessionParts, agent: PooledAgent): Promise<void> {
  const { file, savedId } = p.live.recorder;
  if (!file || !savedId) return;
  const { agentTrajectoryDir, saveAgentTrajectory } = await import("./agent_trajectory.ts");
  const place = { dir: agentTrajectoryDir(file), sessionId: savedId };
  await saveAgentTrajectory(agent, place, (message) => p.io.onEvent({ type: "warning", message }));
}
