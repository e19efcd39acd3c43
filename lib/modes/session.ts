/**
 * The one session object every front end drives: opened from plain settings and a small I/O seam,
 * it runs prompts through the agent loop and reports everything as one typed event stream.
 */
import type { ApprovalAnswer, ApprovalQuestion, ApprovalReply } from "../approval/hook.ts";
import { formatConfigDebug } from "../config/debug.ts";
import type { ConfigValues, REASONING_EFFORTS } from "../config/schema.ts";
import { resolveProvider } from "../config/provider.ts";
import { toolCatalog } from "../harness/deferred.ts";
import { loadHarness } from "../harness/load.ts";
import {
  bareContext,
  promptMessages,
  renderContext,
  withOpeningContext,
  withoutContext,
} from "../harness/context.ts";
import { translateHistory, withoutSealedReasoning } from "../harness/translate.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import { type Block, emptyUsage, type Usage } from "../model/message.ts";
import { openProvider } from "../providers/mod.ts";
import type { SessionOrigin } from "../session/mod.ts";
import type { AskUser } from "../tools/ask_user.ts";
import type { ToolContext } from "../tools/capability.ts";
import { Resources } from "../tools/resources.ts";
import { restoreState, snapshotState } from "../tools/session_state.ts";
import { type JobInfo, JOBS_RESOURCE } from "../tools/shell_jobs.ts";
import { discoverSkills } from "../tools/skills.ts";
import { type AgentSession, openAgentSession, type SessionSettings } from "./agent_session.ts";
import {
  compactHistory,
  compactLimit,
  contextTokens,
  DEFAULT_CONTEXT_WINDOW,
  loadTokenizer,
} from "./compaction.ts";
import { workingTreeDiff } from "./session_diff.ts";
import { type RepoGit, repoGit } from "./review_git.ts";
import { approvalEvent, openRecorder, type SessionRecorder } from "./session_recorder.ts";
import { harnessChoices, harnessDirs, isProvider, providerChoices } from "./session_catalog.ts";
import { infoOf, requestOptions, wireMismatch } from "./session_setup.ts";
import { makeSubagentRunner } from "./subagent.ts";
import { disposeState } from "./_dispose_state.ts";

/** A `model_reasoning_effort` value. */
export type ReasoningEffort = typeof REASONING_EFFORTS[number];

/** What the banner and `/status` show. */
export interface SessionInfo {
  cwd: string;
  model: string;
  provider: string;
  wireApi: string;
  harness: string;
  /** `sandbox: …` and `approval: …` lines. */
  sandbox: string;
}

/** Everything a session reports, in order. Loop events pass through unchanged. */
export type SessionEvent =
  | { type: "session_started"; info: SessionInfo }
  | { type: "warning"; message: string }
  | { type: "approval_requested"; callId?: string; question: ApprovalQuestion }
  | { type: "approval_resolved"; callId?: string; answer: ApprovalAnswer; note?: string }
  | { type: "tool_denied"; callId?: string; reason: string }
  | { type: "subagent"; parentCallId?: string; label: string; event: LoopEvent }
  | { type: "harness_switched"; harness: string }
  | { type: "model_switched"; model: string; provider: string }
  | { type: "compacted"; tokensBefore: number; tokensAfter: number }
  | LoopEvent;

/** What `/status` shows. */
export interface SessionStatus extends SessionInfo {
  sandboxMode: string;
  approval: string;
  network: boolean;
  sessionId?: string;
  sessionFile?: string;
  contextUsed: number;
  contextWindow: number;
  tokens: { input: number; output: number };
  reasoningEffort?: string;
}

/** What the front end supplies. */
export interface SessionIO {
  onEvent(event: SessionEvent): void;
  /** Asks the user to approve a tool call; absent when no one can answer. */
  approve?: (question: ApprovalQuestion) => Promise<ApprovalReply>;
  /** Puts the model's questions to the user; absent when no one can answer. */
  askUser?: AskUser;
}

/** Options of `openSession()`. */
export interface SessionOptions {
  cwd: string;
  env: Record<string, string>;
  settings: SessionSettings;
  io: SessionIO;
  /** Recorded in the session file's header; default "exec". */
  origin?: SessionOrigin;
  /** A saved session to continue (id, id prefix or file); its history is restored. */
  resume?: string;
  /** Save nothing. */
  ephemeral?: boolean;
  /** Builds a system prompt in place of the harness's (a review's reviewer prompt). */
  instructions?: (agent: AgentSession) => string;
}

/** Options of one prompt: the JSON Schema its final answer must match (`--output-schema`). */
export type PromptOptions = Pick<LoopState, "outputSchema">;

/** A running session. Dispose it to stop its jobs, helpers and sandbox. */
export interface Session extends AsyncDisposable {
  readonly info: SessionInfo;
  /** The merged config values (`hide_agent_reasoning`, `history.persistence`, …). */
  readonly config: ConfigValues;
  /** The interpreter home (`~/.openinterpreter`). */
  readonly home: string;
  /** Tokens used so far, over every prompt. */
  readonly usage: Usage;
  /** Runs one user turn to its end; `signal` stops it (Ctrl-C). */
  prompt(input: string | Block[], signal: AbortSignal, opts?: PromptOptions): Promise<TurnOutcome>;
  /** Presents another harness from the next request on, keeping the history. */
  switchHarness(id: string): Promise<void>;
  /** Talks to another model ("NAME" or "PROVIDER/NAME", with an effort) from the next request. */
  switchModel(spec: string, effort?: ReasoningEffort): Promise<void>;
  /** The providers one can switch to: configured and built-in ones, with a default model. */
  models(): Array<
    { provider: string; name: string; model: string; current: boolean; key: boolean }
  >;
  status(): SessionStatus;
  /** Every harness, with the automatic choice for this model and the one in use marked. */
  harnesses(): Promise<Array<{ id: string; label: string; automatic: boolean; current: boolean }>>;
  /** Background jobs of this session. */
  jobs(): JobInfo[];
  stopJob(id: string): Promise<JobInfo & { wasRunning: boolean }>;
  /** The working tree against HEAD, untracked files included, as a plain unified diff. */
  diff(): Promise<string>;
  /** Runs one git command of the agent's own at the repository root (safe git; `/review`). */
  git: RepoGit;
  skills(): Promise<Array<{ name: string; description: string; path: string }>>;
  /** Summarizes the history now (`/compact`). */
  compact(signal: AbortSignal): Promise<void>;
  /** What `interpreter debug config` prints. */
  debugConfig(): string;
}

/** Opens a session: config, provider, harness, sandbox and approvals, the system prompt. */
export async function openSession(opts: SessionOptions): Promise<Session> {
  const { io } = opts;
  let currentCall: string | undefined;
  // Set once the session file is open; approvals asked before that cannot happen.
  const recording: { to?: SessionRecorder } = {};
  const agent = await openAgentSession(opts.settings, {
    cwd: opts.cwd,
    env: opts.env,
    io: {
      warn: (message) => io.onEvent({ type: "warning", message }),
      ask: io.approve
        ? async (question, callId) => {
          io.onEvent({ type: "approval_requested", callId, question });
          const reply = await io.approve!(question);
          const { answer, note } = typeof reply === "string" ? { answer: reply } : reply;
          io.onEvent({ type: "approval_resolved", callId, answer, ...(note ? { note } : {}) });
          recording.to?.append(approvalEvent(callId, answer, note));
          return reply;
        }
        : undefined,
      onDenied: (reason, callId) => io.onEvent({ type: "tool_denied", callId, reason }),
    },
  });
  const info = infoOf(agent, opts.cwd);
  io.onEvent({ type: "session_started", info });
  for (const message of agent.sandbox.warnings) io.onEvent({ type: "warning", message });

  // A session with its own instructions (a review) gets none of the harness's context.
  let context = opts.instructions ? bareContext(opts.instructions(agent)) : agent.context;
  const state: LoopState = {
    model: agent.model,
    system: context.system,
    messages: [],
    usage: emptyUsage(),
    reasoningEffort: agent.config.values.model_reasoning_effort,
  };
  let recorder: SessionRecorder;
  try {
    recorder = await openRecorder(agent, state, opts, io);
  } catch (error) {
    await agent[Symbol.asyncDispose]();
    throw error;
  }
  recording.to = recorder;
  const toolState = recorder.resumedToolState
    ? restoreState(recorder.resumedToolState, {
      note: (message) => io.onEvent({ type: "warning", message }),
    })
    : new Map<string, unknown>();
  const resources = new Resources();
  let savedToolState = JSON.stringify(snapshotState(toolState));
  // Written when it changed, after every tool call: a kill -9 loses at most the running call.
  const saveToolState = () => {
    const snapshot = snapshotState(toolState);
    const text = JSON.stringify(snapshot);
    if (text === savedToolState) return;
    savedToolState = text;
    recorder.append({ type: "tool_state", state: snapshot });
  };
  let harness = agent.harness;
  if (recorder.resumedHarness && recorder.resumedHarness !== harness.id) {
    const before = await loadHarness(recorder.resumedHarness, harnessDirs(agent)).catch(() =>
      undefined
    );
    if (before) {
      const translated = translateHistory(withoutContext(state.messages), before, harness);
      state.messages.splice(0, state.messages.length, ...withOpeningContext(context, translated));
    }
  }
  let provider = agent.provider;
  let providerId = agent.settings.id;
  let wireApi = agent.settings.wireApi;
  state.requestOptions = requestOptions(agent.config.values, recorder.id ?? crypto.randomUUID());
  const window = agent.contextWindow ?? agent.config.values.model_context_window ??
    DEFAULT_CONTEXT_WINDOW;
  const limit = compactLimit(window, agent.config.values.model_auto_compact_token_limit);
  const compact = async (signal: AbortSignal) => {
    const before = contextTokens(state);
    const messages = await compactHistory(state, provider, signal);
    recorder.compacted(messages, before);
    io.onEvent({ type: "compacted", tokensBefore: before, tokensAfter: contextTokens(state) });
  };
  const beforeRequest = async (signal: AbortSignal) => {
    await loadTokenizer(state, limit);
    // Nothing to summarize before the model has answered once.
    if (contextTokens(state) < limit || !state.messages.some((m) => m.role === "assistant")) return;
    await compact(signal).catch((error: Error) =>
      io.onEvent({ type: "warning", message: error.message })
    );
  };
  const beforeToolCall = agent.sandbox.beforeToolCall;
  // Tool calls run one at a time, so a sub-agent's events belong to the latest agent call.
  const emit = (event: LoopEvent) => {
    if (event.type === "tool_start" && event.capability === "agent.run") {
      currentCall = event.call.id;
    }
    // Each message is written as soon as the loop has it; a tool result when the next event comes.
    if (["model_request", "assistant_message", "tool_end", "turn_end"].includes(event.type)) {
      recorder.syncMessages();
    }
    if (event.type === "tool_end" || event.type === "turn_end") saveToolState();
    io.onEvent(event);
  };
  const contextFor = (signal: AbortSignal): ToolContext => {
    const { sandbox, config } = agent;
    const ctx: ToolContext = {
      cwd: opts.cwd,
      env: sandbox.env,
      state: toolState,
      resources,
      signal,
      toolCatalog: toolCatalog(harness, toolState, { guard: beforeToolCall }),
      sandbox: sandbox.sandbox,
      fs: sandbox.fs,
      scratch: sandbox.scratch,
      networkAllowed: sandbox.networkAllowed,
      home: config.home,
      isHeldBack: agent.isHeldBack,
      askUser: io.askUser,
    };
    ctx.runSubagent = makeSubagentRunner(ctx, {
      provider,
      harness,
      parent: state,
      beforeToolCall,
      emit: (event, label) =>
        io.onEvent({ type: "subagent", parentCallId: currentCall, label, event }),
    });
    return ctx;
  };

  return {
    info,
    config: agent.config.values,
    home: agent.config.home,
    get usage() {
      return state.usage;
    },
    async prompt(input, signal, opts) {
      state.outputSchema = opts?.outputSchema;
      const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
      // A resumed conversation already had the harness's opening context.
      const first = state.messages.length === 0;
      state.messages.push(...promptMessages(context, blocks, first));
      recorder.syncMessages();
      const outcome = await runTurn(state, {
        provider,
        harness,
        ctx: contextFor(signal),
        emit,
        beforeToolCall,
        beforeRequest,
        maxSteps: agent.config.values.max_turn_steps,
        signal,
      });
      await recorder.flush().catch((error: Error) =>
        io.onEvent({ type: "warning", message: `Cannot save the session: ${error.message}` })
      );
      return outcome;
    },
    async switchHarness(id) {
      const next = await loadHarness(id, harnessDirs(agent));
      if (!next.wireApis.includes(agent.settings.wireApi)) {
        throw wireMismatch(next.id, agent.settings.wireApi, next.wireApis);
      }
      context = opts.instructions ? context : renderContext(next, await agent.promptVarsFor(next));
      const translated = translateHistory(withoutContext(state.messages), harness, next);
      state.messages.splice(0, state.messages.length, ...withOpeningContext(context, translated));
      harness = next;
      state.system = context.system;
      info.harness = next.id;
      recorder.append({ type: "harness_switch", harness: next.id });
      io.onEvent({ type: "harness_switched", harness: next.id });
    },
    models: () => providerChoices(agent, opts.env, { provider: providerId, model: state.model }),
    async switchModel(spec, effort) {
      const slash = spec.indexOf("/");
      const wanted = slash > 0 && isProvider(agent, spec.slice(0, slash))
        ? { provider: spec.slice(0, slash), model: spec.slice(slash + 1) }
        : { provider: providerId, model: spec };
      const config = {
        ...agent.config,
        values: { ...agent.config.values, model: wanted.model, model_provider: wanted.provider },
      };
      const resolved = resolveProvider(config, opts.env);
      if (!harness.wireApis.includes(resolved.settings.wireApi)) {
        throw wireMismatch(harness.id, resolved.settings.wireApi, harness.wireApis);
      }
      provider = await openProvider(resolved.settings);
      state.messages.splice(0, state.messages.length, ...withoutSealedReasoning(state.messages));
      providerId = resolved.settings.id;
      wireApi = resolved.settings.wireApi;
      state.model = resolved.model;
      if (effort) state.reasoningEffort = effort;
      Object.assign(info, { model: resolved.model, provider: providerId, wireApi });
      recorder.append({ type: "model_switch", provider: providerId, model: resolved.model });
      io.onEvent({ type: "model_switched", model: resolved.model, provider: providerId });
    },
    status() {
      const { values } = agent.config;
      return {
        ...info,
        sandboxMode: values.sandbox_mode,
        sandbox: agent.sandbox.sandbox.status.description,
        approval: values.approval_policy,
        network: agent.sandbox.networkAllowed,
        sessionId: recorder.id,
        sessionFile: recorder.file,
        contextUsed: contextTokens(state),
        contextWindow: window,
        tokens: { input: state.usage.inputTokens, output: state.usage.outputTokens },
        reasoningEffort: state.reasoningEffort,
      };
    },
    harnesses: () =>
      harnessChoices(agent, { harness: harness.id, model: state.model, providerId, wireApi }),
    jobs: () => resources.get(JOBS_RESOURCE)?.list() ?? [],
    async stopJob(id) {
      const registry = resources.get(JOBS_RESOURCE);
      if (!registry) throw new Error(`No background job "${id}"`);
      return await registry.stop(id);
    },
    diff: () => workingTreeDiff(agent.git, opts.cwd, agent.isHeldBack),
    git: (args) => repoGit(agent, opts.cwd, args),
    async skills() {
      const found = await discoverSkills(opts.cwd, agent.config.home, {
        userHome: opts.env.HOME,
        fs: agent.sandbox.fs,
        isHeldBack: agent.isHeldBack,
      });
      return found.map(({ name, description, path }) => ({ name, description, path }));
    },
    compact,
    debugConfig: () => formatConfigDebug(agent.config),
    async [Symbol.asyncDispose]() {
      saveToolState();
      await disposeState(toolState, resources);
      await recorder.close();
      await agent[Symbol.asyncDispose]();
    },
  };
}
