/**
 * The one session object every front end drives: opened from plain settings and a small I/O seam,
 * it runs prompts through the agent loop and reports everything as one typed event stream.
 */
import { formatConfigDebug } from "../config/debug.ts";
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
import type { LoopEvent } from "../loop/events.ts";
import { type Block, emptyUsage } from "../model/message.ts";
import { openProvider } from "../providers/mod.ts";
import type { ToolContext } from "../tools/capability.ts";
import { Resources } from "../tools/resources.ts";
import { restoreState, snapshotState } from "../tools/session_state.ts";
import { JOBS_RESOURCE } from "../tools/shell_jobs.ts";
import { discoverSkills } from "../tools/skills.ts";
import { openAgentSession } from "./agent_session.ts";
import { compactHistory, contextTokens, loadTokenizer } from "./compaction.ts";
import { loadCatalog, modelLimits } from "../providers/catalog.ts";
import { workingTreeDiff } from "../workspace/diff.ts";
import { repoGit } from "../workspace/repo_git.ts";
import { approvalEvent, openRecorder, type SessionRecorder } from "./recorder.ts";
import {
  fittingHarnesses,
  harnessChoices,
  harnessDirs,
  isProvider,
  providerChoices,
} from "./choices.ts";
import type { Session, SessionInfo, SessionOptions } from "./types.ts";
import { infoOf, requestOptions, wireLabel, wireMismatch } from "./setup.ts";
import { makeSubagentRunner } from "./subagent.ts";
import { disposeState } from "./_dispose_state.ts";

export type {
  PromptOptions,
  ReasoningEffort,
  Session,
  SessionEvent,
  SessionInfo,
  SessionIO,
  SessionOptions,
  SessionStatus,
} from "./types.ts";

/** Opens a session: config, provider, harness, sandbox and approvals, the system prompt. */
export async function openSession(opts: SessionOptions): Promise<Session> {
  const { io } = opts;
  let currentCall: string | undefined;
  // Set once the session file is open; approvals asked before that cannot happen.
  const recording: { to?: SessionRecorder } = {};
  const catalogRead = loadCatalog();
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
  const { values } = agent.config;
  const catalog = await catalogRead;
  const limitsFor = (settings: typeof agent.settings, model: string, window?: number) =>
    modelLimits(catalog, settings, {
      model,
      configuredWindow: window ?? values.model_context_window,
      configuredCompactAt: values.model_auto_compact_token_limit,
    });
  // The window a local server works with applies to the model it was checked with.
  let limits = limitsFor(agent.settings, agent.model, agent.contextWindow);
  const info: SessionInfo = { ...infoOf(agent, opts.cwd), contextNote: limits.guessNote };
  let repairs = 0;
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
  const from = recorder.resumedFrom;
  const toolState = recorder.resumedToolState && from
    ? restoreState(recorder.resumedToolState, {
      note: (message) => io.onEvent({ type: "warning", message }),
      from: `session "${from.file}", line ${from.line}`,
      workspace: {
        cwd: opts.cwd,
        realCwd: await agent.sandbox.fs.realPath(opts.cwd).catch(() => opts.cwd),
        recordedCwd: from.cwd,
      },
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
  state.requestOptions = {
    ...requestOptions(values, recorder.id ?? crypto.randomUUID()),
    maxOutputCap: limits.maxOutput,
  };
  const compact = async (signal: AbortSignal) => {
    const before = contextTokens(state);
    const messages = await compactHistory(state, provider, signal);
    recorder.compacted(messages, before);
    io.onEvent({ type: "compacted", tokensBefore: before, tokensAfter: contextTokens(state) });
  };
  const beforeRequest = async (signal: AbortSignal) => {
    await loadTokenizer(state, limits.compactAt);
    // Nothing to summarize before the model has answered once.
    if (
      contextTokens(state) < limits.compactAt || !state.messages.some((m) => m.role === "assistant")
    ) return;
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
    if (event.type === "tool_calls_repaired") repairs += event.count;
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
      webFetch: { allowedHosts: config.values.web_fetch?.allowed_hosts ?? [] },
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
        maxSteps: values.max_turn_steps,
        toolCallRepair: values.tool_call_repair,
        loopGuardRepeats: values.loop_guard_repeats,
        signal,
      });
      if (outcome.status === "repeated_call") {
        const current = { harness: harness.id, model: state.model, providerId, wireApi };
        outcome.harnesses = await fittingHarnesses(agent, current, limits.family);
      }
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
    models: () =>
      providerChoices(agent, {
        env: opts.env,
        current: { provider: providerId, model: state.model },
        catalog,
      }),
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
      limits = limitsFor(resolved.settings, resolved.model);
      state.requestOptions = { ...state.requestOptions, maxOutputCap: limits.maxOutput };
      const contextNote = limits.guessNote;
      Object.assign(info, {
        model: resolved.model,
        provider: providerId,
        wireApi: wireLabel(resolved.settings),
        contextNote,
      });
      recorder.append({ type: "model_switch", provider: providerId, model: resolved.model });
      io.onEvent({
        type: "model_switched",
        model: resolved.model,
        provider: providerId,
        contextNote,
      });
    },
    status() {
      return {
        ...info,
        sandboxMode: values.sandbox_mode,
        sandbox: agent.sandbox.sandbox.status.description,
        approval: values.approval_policy,
        network: agent.sandbox.networkAllowed,
        sessionId: recorder.id,
        sessionFile: recorder.file,
        contextUsed: contextTokens(state),
        contextWindow: limits.contextWindow,
        toolCallRepairs: values.tool_call_repair === false ? undefined : repairs,
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
