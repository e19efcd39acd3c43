import { ToolError } from "../errors.ts";
import { renderResult, renderToolError, resolveCall } from "../harness/call.ts";
import type { Harness } from "../harness/types.ts";
import type { ToolContext } from "../tools/capability.ts";
import type { LoopEvent, ToolCallInfo } from "./events.ts";

/** A tool call's outcome as text for the model. */
export interface DispatchResult {
  text: string;
  isError: boolean;
  /** The capability's structured output, when the call succeeded. */
  output?: unknown;
}

/**
 * Decides whether a resolved call may run. Approval policies plug in here; an allowed call runs
 * with `input` when given (an approved sandbox escape marks it).
 */
export type BeforeToolCall = (
  call: ToolCallInfo,
  resolved: { capability: string; input: unknown },
) => Promise<{ allow: true; input?: unknown } | { allow: false; reason: string }>;

/**
 * Runs one tool call through the harness: map wire arguments onto the capability, run it, and
 * render the result in the harness's format. Failures the model can act on come back as error
 * results; they never end the run.
 */
export async function dispatchToolCall(
  call: ToolCallInfo & { rawArgs?: string },
  deps: {
    harness: Harness;
    ctx: ToolContext;
    emit: (event: LoopEvent) => void;
    beforeToolCall?: BeforeToolCall;
  },
): Promise<DispatchResult> {
  const { harness, ctx, emit } = deps;
  let capabilityId: string | undefined;
  try {
    const resolved = resolveCall(harness, call);
    capabilityId = resolved.capability.id;
    emit({ type: "tool_start", call, capability: capabilityId, input: resolved.input });
    const verdict = await deps.beforeToolCall?.(call, {
      capability: capabilityId,
      input: resolved.input,
    });
    if (verdict && !verdict.allow) throw new ToolError(verdict.reason);
    const input = verdict?.input ?? resolved.input;
    const output = await resolved.capability.run(input, ctx);
    const text = renderResult(resolved.tool, output);
    emit({ type: "tool_end", call, capability: capabilityId, output, text, isError: false });
    return { text, isError: false, output };
  } catch (error) {
    const toolError = asToolError(error);
    if (capabilityId === undefined) emit({ type: "tool_start", call });
    const text = renderToolError(harness, toolError);
    emit({ type: "tool_end", call, capability: capabilityId, text, isError: true });
    return { text, isError: true };
  }
}

/** File-system and process errors are the model's to handle; so is anything a tool throws. */
function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof Error) return new ToolError(`${error.name}: ${error.message}`);
  return new ToolError(String(error));
}
