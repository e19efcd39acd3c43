import type { Harness } from "../harness/types.ts";
import type { SubagentFacts } from "../hooks/session_events.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import type { ToolHooks } from "../loop/tool_hooks.ts";
import type { SourcePlacement } from "../loop/tool_sources.ts";
import { addUsage, emptyUsage, type Usage } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";
import { Resources } from "../tools/resources.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import type { ToolProgress, TurnContext } from "../tools/types.ts";
import type { DefinedSubagents, SubagentShape } from "../setups/agents/run_shape.ts";
import { disposeState } from "./_dispose_state.ts";

export type { DefinedSubagents, SubagentShape };

/** The `TurnContext.runSubagent` seam. */
export type SubagentRunner = NonNullable<TurnContext["runSubagent"]>;

/** What a sub-agent shares with the agent that starts it. */
export interface SubagentOptions {
  provider: Provider;
  /** The parent's harness; its `agent.run` tools are withheld from the sub-agent. */
  harness: Harness;
  /** The parent conversation: model, system prompt and reasoning effort are reused, and the
   * sub-agent's token usage is added to its `usage`. */
  parent: Pick<LoopState, "model" | "system" | "reasoningEffort" | "usage">;
  /**
   * Receives the nested loop's events, tagged with the request's description and the id of the
   * call that started the sub-agent (when the request names it).
   */
  emit: (event: LoopEvent, label: string, callId: string | undefined) => void;
  /** SubagentStart and SubagentStop hooks; none when there are none. */
  hooks?: SubagentHooks;
  /** The parent's hook chain; the sub-agent's turn gets links of its own from it. */
  toolHooks: ToolHooks;
  /** The parent's tool sources, offered to the sub-agent too. */
  toolSources?: readonly ToolSource[];
  sourcePlacement?: SourcePlacement;
  maxSteps?: number;
  /** The sub-agents users and projects defined (lib/setups/agents); none: only built-in types. */
  defined?: DefinedSubagents;
  /** The ids of the models the session's provider offers (the catalog's), for their `model`. */
  offeredModels?: () => readonly string[];
  /** Tells the user a defined sub-agent's notes (a model it asked for that is not offered). */
  warn?: (message: string) => void;
  /** The session's spending limit reached (usage added to `parent` counts): the run ends. */
  budgetStop?: () => TurnOutcome | undefined;
}

/** The shape of a run of `agentType` when it is a defined sub-agent. */
export function definedShape(
  opts: SubagentOptions,
  agentType: string,
  harness: Harness = opts.harness,
): SubagentShape | undefined {
  return opts.defined?.shape(agentType, {
    harness,
    model: opts.parent.model,
    offered: opts.offeredModels?.() ?? [],
    toolHooks: opts.toolHooks,
  });
}

/** The session's SubagentStart and SubagentStop hooks, as a sub-agent's run calls them. */
export interface SubagentHooks {
  /** SubagentStart: context for the sub-agent, read before its prompt. */
  started(agent: SubagentFacts, signal: AbortSignal): Promise<string[]>;
  /** SubagentStop: the reason to keep it going (its next message), or undefined to let it end. */
  stopping(
    agent: SubagentFacts & { active: boolean; lastMessage: string },
    signal: AbortSignal,
  ): Promise<string | undefined>;
  /** Says that the hooks kept a sub-agent going too many times. */
  warn(message: string): void;
}

/** Most times SubagentStop hooks may keep one sub-agent going in a row (as Stop hooks a turn). */
const MAX_STOP_CONTINUATIONS = 8;

/** Longest part of a call's first argument in a sub-agent's progress line. */
const STEP_SUBJECT_CHARS = 100;

/** One step of a sub-agent: its conversation runs until the model stops (or hooks end it). */
export type SubagentStep = (
  state: LoopState,
  step: {
    agent: SubagentFacts;
    label: string;
    callId: string | undefined;
    signal: AbortSignal;
    progress?: (chunk: ToolProgress) => void;
  },
) => Promise<{ finalText: string; toolCalls: number; status: TurnOutcome["status"] }>;

/**
 * Makes a sub-agent's step: one nested turn of the same loop over `state` (a conversation of the
 * sub-agent's own, with session state of its own), in a copy of `ctx` without `runSubagent` or
 * `agents` (so nesting stops at one level) and with the step's signal. Its token usage is added
 * to the parent's; each tool call is reported to `progress` and every event to `opts.emit`.
 */
export function makeSubagentStep(ctx: TurnContext, opts: SubagentOptions): SubagentStep {
  const harness: Harness = {
    ...opts.harness,
    tools: opts.harness.tools.filter((t) => !t.capability.startsWith("agent.")),
  };
  const { runSubagent: _omit, agents: _pool, ...rest } = ctx;
  return async (state, step) => {
    let toolCalls = 0;
    const subState = new Map<string, unknown>();
    const subResources = new Resources();
    let counted = { ...state.usage };
    // The parent counts the tokens so far before each request, so that the budget sees them.
    const countUsage = () => {
      addUsage(opts.parent.usage, usageSince(state.usage, counted));
      counted = { ...state.usage };
    };
    const shape = definedShape(opts, step.agent.agentType, harness);
    const run = () =>
      runTurn(state, {
        provider: opts.provider,
        harness: shape?.harness ?? harness,
        ctx: { ...rest, signal: step.signal, state: subState, resources: subResources },
        emit: (event) => {
          if (event.type === "tool_end") toolCalls++;
          if (event.type === "tool_start") step.progress?.(stepLine(event.call));
          opts.emit(event, step.label, step.callId);
        },
        toolHooks: shape?.toolHooks ?? opts.toolHooks,
        toolSources: shape && !shape.mcp ? [] : opts.toolSources,
        sourcePlacement: opts.sourcePlacement,
        maxSteps: opts.maxSteps,
        beforeRequest: () => Promise.resolve(countUsage()).then(() => opts.budgetStop?.()),
        signal: step.signal,
      });
    const hookOpts = { agent: step.agent, hooks: opts.hooks, signal: step.signal };
    const outcome = await untilStopped(state, hookOpts, run)
      .finally(() => disposeState(subState, subResources));
    countUsage();
    return { finalText: finalTextOf(outcome), toolCalls, status: outcome.status };
  };
}

/** The usage `now` adds to `before` (a sub-agent's conversation keeps its running total). */
function usageSince(now: Usage, before: Usage): Usage {
  return {
    inputTokens: now.inputTokens - before.inputTokens,
    outputTokens: now.outputTokens - before.outputTokens,
    cachedInputTokens: now.cachedInputTokens - before.cachedInputTokens,
    reasoningTokens: now.reasoningTokens - before.reasoningTokens,
  };
}

/**
 * A fresh conversation for a sub-agent: its start-hook context, then its prompt; a defined
 * sub-agent's (`shape`) has its own system prompt and model.
 */
export function subagentState(
  parent: SubagentOptions["parent"],
  context: string[],
  prompt: string,
  shape?: Pick<SubagentShape, "system" | "model">,
): LoopState {
  return {
    model: shape?.model ?? parent.model,
    system: shape?.system ?? parent.system,
    messages: [{
      role: "user",
      blocks: [...context, prompt].map((text) => ({ type: "text", text })),
    }],
    usage: emptyUsage(),
    reasoningEffort: parent.reasoningEffort,
  };
}

/** A sub-agent's facts: a fresh id and its type (`general-purpose` by default). */
export function subagentFacts(agentType: string | undefined): SubagentFacts {
  return {
    agentId: `agent-${crypto.randomUUID().slice(0, 8)}`,
    agentType: agentType ?? "general-purpose",
  };
}

/**
 * Makes the runner for `ctx.runSubagent`: each call runs one sub-agent step (see
 * `makeSubagentStep`) in a fresh conversation and returns the final text, the number of tool
 * calls and the outcome.
 */
export function makeSubagentRunner(ctx: TurnContext, opts: SubagentOptions): SubagentRunner {
  const step = makeSubagentStep(ctx, opts);
  return async (req) => {
    const agent = subagentFacts(req.agentType);
    const context = await opts.hooks?.started(agent, ctx.signal) ?? [];
    const shape = definedShape(opts, agent.agentType);
    for (const note of shape?.notes ?? []) opts.warn?.(note);
    const state = subagentState(opts.parent, context, req.prompt, shape);
    const label = req.description ?? req.agentType ?? "sub-agent";
    return await step(state, {
      agent,
      label,
      callId: req.callId,
      signal: ctx.signal,
      progress: req.progress,
    });
  };
}

/** Runs the sub-agent's turn, then on as long as a SubagentStop hook keeps it going. */
async function untilStopped(
  state: LoopState,
  opts: { agent: SubagentFacts; hooks?: SubagentHooks; signal: AbortSignal },
  run: () => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  let outcome = await run();
  const { hooks, signal } = opts;
  if (!hooks) return outcome;
  for (let times = 0; outcome.status === "completed" && !signal.aborted; times++) {
    const lastMessage = outcome.finalText;
    const reason = await hooks.stopping({ ...opts.agent, active: times > 0, lastMessage }, signal)
      .catch((error) => {
        if (signal.aborted) return undefined;
        throw error;
      });
    if (reason === undefined) break;
    if (times === MAX_STOP_CONTINUATIONS) {
      hooks.warn(
        `SubagentStop hooks kept a sub-agent going ${times} times in a row; it ends here. A ` +
          "SubagentStop hook can read stop_hook_active from its input to let it end",
      );
      break;
    }
    state.messages.push({ role: "user", blocks: [{ type: "text", text: reason }] });
    outcome = await run();
  }
  return outcome;
}

/** What the parent's model reads of a sub-agent's outcome. */
function finalTextOf(outcome: Awaited<ReturnType<typeof runTurn>>): string {
  switch (outcome.status) {
    case "completed":
      return outcome.finalText;
    case "failed":
      return outcome.error.message;
    case "step_limit":
      return `it made ${outcome.limit} model requests without finishing`;
    case "budget_limit":
      return `the session reached its spending limit (max_budget_usd = ${outcome.limit})`;
    case "repeated_call":
      return outcome.words.message;
    default:
      return "";
  }
}

/** One progress line for a step: the tool and the start of its first text argument. */
function stepLine(call: { name: string; args: unknown }): ToolProgress {
  const args = typeof call.args === "object" && call.args !== null ? call.args : {};
  const first = Object.values(args).find((v): v is string => typeof v === "string");
  const subject = first?.split("\n")[0].slice(0, STEP_SUBJECT_CHARS);
  return { stream: "status", text: `${call.name}${subject ? ` ${subject}` : ""}\n` };
}
