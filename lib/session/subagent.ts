import type { Harness } from "../harness/types.ts";
import { type LoopState, runTurn } from "../loop/agent_loop.ts";
import type { BeforeToolCall } from "../loop/dispatch.ts";
import type { LoopEvent } from "../loop/events.ts";
import { addUsage, emptyUsage } from "../model/message.ts";
import type { Provider } from "../providers/types.ts";
import type { ToolContext } from "../tools/capability.ts";
import { Resources } from "../tools/resources.ts";
import { disposeState } from "./_dispose_state.ts";

/** The `ToolContext.runSubagent` seam. */
export type SubagentRunner = NonNullable<ToolContext["runSubagent"]>;

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
  beforeToolCall: BeforeToolCall;
  maxSteps?: number;
}

/**
 * Makes the runner for `ctx.runSubagent`: each call runs one nested turn of the same loop with a
 * fresh conversation and session state, in a copy of `ctx` without `runSubagent` (so nesting
 * stops at one level), and returns the final text, the number of tool calls and the outcome.
 */
export function makeSubagentRunner(ctx: ToolContext, opts: SubagentOptions): SubagentRunner {
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
        opts.emit(event, label);
      },
      beforeToolCall: opts.beforeToolCall,
      maxSteps: opts.maxSteps,
      signal: ctx.signal,
    }).finally(() => disposeState(subState, subResources));
    addUsage(opts.parent.usage, state.usage);
    const finalText = outcome.status === "completed"
      ? outcome.finalText
      : outcome.status === "failed"
      ? outcome.error.message
      : outcome.status === "step_limit"
      ? `it made ${outcome.limit} model requests without finishing`
      : outcome.status === "repeated_call"
      ? `it made the same failing ${outcome.call.name} call ${outcome.call.repeats} times`
      : "";
    return { finalText, toolCalls, status: outcome.status };
  };
}
