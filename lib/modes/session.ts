/**
 * The one session object every front end drives (exec today; the REPL, the JSON event stream,
 * the MCP server and ACP next): opened from plain settings and a small I/O seam, it runs prompts
 * through the agent loop and reports everything as one typed event stream.
 */
import type { ApprovalAnswer, ApprovalQuestion } from "../approval/hook.ts";
import { toolCatalog } from "../harness/deferred.ts";
import { loadHarness } from "../harness/load.ts";
import { renderSystemPrompt } from "../harness/prompt.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import { type Block, emptyUsage, type Usage } from "../model/message.ts";
import type { AskUser } from "../tools/ask_user.ts";
import type { ToolContext } from "../tools/capability.ts";
import { type AgentSession, openAgentSession, type SessionSettings } from "./agent_session.ts";
import { BUILTIN_HARNESSES } from "./agent_session.ts";
import { wireMismatch } from "./session_setup.ts";
import { makeSubagentRunner } from "./subagent.ts";
import { disposeState } from "./_dispose_state.ts";

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
  | { type: "approval_resolved"; callId?: string; answer: ApprovalAnswer }
  | { type: "tool_denied"; callId?: string; reason: string }
  | { type: "subagent"; parentCallId?: string; label: string; event: LoopEvent }
  | { type: "harness_switched"; harness: string }
  | LoopEvent;

/** What the front end supplies. */
export interface SessionIO {
  onEvent(event: SessionEvent): void;
  /** Asks the user to approve a tool call; absent when no one can answer. */
  approve?: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
  /** Puts the model's questions to the user; absent when no one can answer. */
  askUser?: AskUser;
}

/** Options of `openSession()`. */
export interface SessionOptions {
  cwd: string;
  env: Record<string, string>;
  settings: SessionSettings;
  io: SessionIO;
}

/** A running session. Dispose it to stop its jobs, helpers and sandbox. */
export interface Session extends AsyncDisposable {
  readonly info: SessionInfo;
  /** Tokens used so far, over every prompt. */
  readonly usage: Usage;
  /** Runs one user turn to its end; `signal` stops it (Ctrl-C). */
  prompt(input: string | Block[], signal: AbortSignal): Promise<TurnOutcome>;
  /** Presents another harness from the next request on, keeping the history. */
  switchHarness(id: string): Promise<void>;
}

/** Opens a session: config, provider, harness, sandbox and approvals, the system prompt. */
export async function openSession(opts: SessionOptions): Promise<Session> {
  const { io } = opts;
  let currentCall: string | undefined;
  const agent = await openAgentSession(opts.settings, {
    cwd: opts.cwd,
    env: opts.env,
    io: {
      warn: (message) => io.onEvent({ type: "warning", message }),
      ask: io.approve
        ? async (question, callId) => {
          io.onEvent({ type: "approval_requested", callId, question });
          const answer = await io.approve!(question);
          io.onEvent({ type: "approval_resolved", callId, answer });
          return answer;
        }
        : undefined,
      onDenied: (reason, callId) => io.onEvent({ type: "tool_denied", callId, reason }),
    },
  });
  const info = infoOf(agent, opts.cwd);
  io.onEvent({ type: "session_started", info });
  for (const message of agent.sandbox.warnings) io.onEvent({ type: "warning", message });

  const state: LoopState = {
    model: agent.model,
    system: agent.system,
    messages: [],
    usage: emptyUsage(),
    reasoningEffort: agent.config.values.model_reasoning_effort,
  };
  const toolState = new Map<string, unknown>();
  let harness = agent.harness;
  let opening = agent.openingReminders;
  const beforeToolCall = agent.sandbox.beforeToolCall;
  // Tool calls run one at a time, so a sub-agent's events belong to the latest agent call.
  const emit = (event: LoopEvent) => {
    if (event.type === "tool_start" && event.capability === "agent.run") {
      currentCall = event.call.id;
    }
    io.onEvent(event);
  };
  const contextFor = (signal: AbortSignal): ToolContext => {
    const { sandbox, config } = agent;
    const ctx: ToolContext = {
      cwd: opts.cwd,
      env: sandbox.env,
      state: toolState,
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
      provider: agent.provider,
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
    get usage() {
      return state.usage;
    },
    async prompt(input, signal) {
      const blocks: Block[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
      state.messages.push({
        role: "user",
        blocks: [...opening.map((text) => ({ type: "text" as const, text })), ...blocks],
      });
      opening = [];
      return await runTurn(state, {
        provider: agent.provider,
        harness,
        ctx: contextFor(signal),
        emit,
        beforeToolCall,
        maxSteps: agent.config.values.max_turn_steps,
        signal,
      });
    },
    async switchHarness(id) {
      const next = await loadHarness(id, {
        builtinDir: BUILTIN_HARNESSES,
        userDir: `${agent.config.home}/harnesses`,
      });
      if (!next.wireApis.includes(agent.settings.wireApi)) {
        throw wireMismatch(next.id, agent.settings.wireApi, next.wireApis);
      }
      harness = next;
      state.system = renderSystemPrompt(next, agent.promptVars);
      info.harness = next.id;
      io.onEvent({ type: "harness_switched", harness: next.id });
    },
    async [Symbol.asyncDispose]() {
      await disposeState(toolState);
      await agent[Symbol.asyncDispose]();
    },
  };
}

function infoOf(agent: AgentSession, cwd: string): SessionInfo {
  return {
    cwd,
    model: agent.model,
    provider: agent.settings.id,
    wireApi: agent.settings.wireApi,
    harness: agent.harness.id,
    sandbox: agent.sandbox.banner,
  };
}
