import type { Harness } from "../harness/types.ts";
import type { SubagentFacts } from "../hooks/session_events.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent, TurnOutcome } from "../loop/events.ts";
import type { ToolHooks } from "../loop/tool_hooks.ts";
import type { SourcePlacement } from "../loop/tool_sources.ts";
import { addUsage, emptyUsage } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";
import { Resources } from "../tools/resources.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import type { ToolProgress, TurnContext } from "../tools/types.ts";
import { disposeState } from "./_dispose_state.ts";

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

/**
 * Makes the runner for `ctx.runSubagent`: each call runs one nested turn of the same loop with a
 * fresh conversation and session state, in a copy of `ctx` without `runSubagent` (so nesting
 * stops at one level), reports a line per tool call it makes to `req.progress`, and returns the
 * final text, the number of tool calls and the outcome.
 */
export function makeSubagentRunner(ctx: TurnContext, opts: SubagentOptions): SubagentRunner {
  const harness: Harness = {
    ...opts.harness,
    tools: opts.harness.tools.filter((t) => t.capability !== "agent.run"),
  };
  return async (req) => {
    const { runSubagent: _omit, ...rest } = ctx;
    const agent: SubagentFacts = {
      agentId: `agent-${crypto.randomUUID().slice(0, 8)}`,
      agentType: req.agentType ?? "general-purpose",
    };
    const context = await opts.hooks?.started(agent, ctx.signal) ?? [];
    const state: LoopState = {
      model: opts.parent.model,
      system: opts.parent.system,
      messages: [{
        role: "user",
        blocks: [...context, req.prompt].map((text) => ({ type: "text", text })),
      }],
      usage: emptyUsage(),
      reasoningEffort: opts.parent.reasoningEffort,
    };
    const label = req.description ?? req.agentType ?? "sub-agent";
    let toolCalls = 0;
    const subState = new Map<string, unknown>();
    const subResources = new Resources();
    const run = () =>
      runTurn(state, {
        provider: opts.provider,
        harness,
        ctx: { ...rest, state: subState, resources: subResources },
        emit: (event) => {
          if (event.type === "tool_end") toolCalls++;
          if (event.type === "tool_start") req.progress?.(stepLine(event.call));
          opts.emit(event, label, req.callId);
        },
        toolHooks: opts.toolHooks,
        toolSources: opts.toolSources,
        sourcePlacement: opts.sourcePlacement,
        maxSteps: opts.maxSteps,
        signal: ctx.signal,
      });
    const outcome = await untilStopped(state, { agent, hooks: opts.hooks, signal: ctx.signal }, run)
      .finally(() => disposeState(subState, subResources));
    addUsage(opts.parent.usage, state.usage);
    return { finalText: finalTextOf(outcome), toolCalls, status: outcome.status };
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
