import type { Harness } from "../harness/types.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { LoopEvent } from "../loop/events.ts";
import { describeLoop } from "../loop/repeated_call.ts";
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
  /** Receives the nested loop's events, tagged with the request's description. */
  emit: (event: LoopEvent, label: string) => void;
  /** The parent's hook chain; the sub-agent's turn gets links of its own from it. */
  toolHooks: ToolHooks;
  /** The parent's tool sources, offered to the sub-agent too. */
  toolSources?: readonly ToolSource[];
  sourcePlacement?: SourcePlacement;
  maxSteps?: number;
}

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
    const state: LoopState = {
      model: opts.parent.model,
      system: opts.parent.system,
      messages: [{ role: "user", blocks: [{ type: "text", text: req.prompt }] }],
      usage: emptyUsage(),
      reasoningEffort: opts.parent.reasoningEffort,
    };
    const label = req.description ?? req.agentType ?? "sub-agent";
    let toolCalls = 0;
    const subState = new Map<string, unknown>();
    const subResources = new Resources();
    const outcome = await runTurn(state, {
      provider: opts.provider,
      harness,
      ctx: { ...rest, state: subState, resources: subResources },
      emit: (event) => {
        if (event.type === "tool_end") toolCalls++;
        if (event.type === "tool_start") req.progress?.(stepLine(event.call));
        opts.emit(event, label);
      },
      toolHooks: opts.toolHooks,
      toolSources: opts.toolSources,
      sourcePlacement: opts.sourcePlacement,
      maxSteps: opts.maxSteps,
      signal: ctx.signal,
    }).finally(() => disposeState(subState, subResources));
    addUsage(opts.parent.usage, state.usage);
    return { finalText: finalTextOf(outcome), toolCalls, status: outcome.status };
  };
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
      return describeLoop(outcome.call).message;
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
