import { ToolError } from "../errors.ts";
import { renderResult, renderToolError, resolveCall, resultIsError } from "../harness/call.ts";
import type { Harness } from "../harness/types.ts";
import { type ToolContext, withGrant } from "../tools/capability.ts";
import type { LoopEvent, ToolCallInfo } from "./events.ts";

/** A tool call's outcome as text for the model. */
export interface DispatchResult {
  text: string;
  isError: boolean;
  /** The capability's structured output, when the call succeeded. */
  output?: unknown;
}

/**
 * Decides whether a resolved call may run: the session's approval path. Every tool call goes
 * through it. A model's request to leave the sandbox (an escalation field in the input) is only
 * a request; the call runs outside the sandbox only when this grants `unsandboxed`.
 */
export type BeforeToolCall = (
  call: ToolCallInfo,
  resolved: { capability: string; input: unknown },
) => Promise<{ allow: true; unsandboxed?: boolean } | { allow: false; reason: string }>;

/** A bug in a capability (not a tool, file-system or process error): it fails the turn. */
export class InternalToolError extends Error {
  readonly tool: string;
  constructor(tool: string, cause: unknown) {
    super(
      `Internal error in the ${tool} tool: ${cause instanceof Error ? cause.message : cause}`,
      { cause },
    );
    this.name = "InternalToolError";
    this.tool = tool;
  }
}

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
    beforeToolCall: BeforeToolCall;
  },
): Promise<DispatchResult> {
  const { harness, ctx, emit } = deps;
  let capabilityId: string | undefined;
  try {
    const resolved = resolveCall(harness, call);
    capabilityId = resolved.capability.id;
    emit({ type: "tool_start", call, capability: capabilityId, input: resolved.input });
    const verdict = await deps.beforeToolCall(call, {
      capability: capabilityId,
      input: resolved.input,
    });
    if (!verdict.allow) throw new ToolError(verdict.reason);
    const input = withGrant(resolved.input, verdict.unsandboxed === true);
    const output = await resolved.capability.run(input, ctx);
    const text = renderResult(resolved.tool, output);
    emit({ type: "tool_end", call, capability: capabilityId, output, text, isError: false });
    // The call ran, so front ends show its output; the wire still flags a failed result (a
    // non-zero exit, where the harness says so) as its vendor does.
    return { text, isError: resultIsError(resolved.tool, output), output };
  } catch (error) {
    if (!isModelFacing(error)) {
      emit({ type: "tool_end", call, capability: capabilityId, text: "", isError: true });
      throw new InternalToolError(call.name, error);
    }
    const toolError = asToolError(error);
    if (capabilityId === undefined) emit({ type: "tool_start", call });
    const text = renderToolError(harness, toolError);
    emit({ type: "tool_end", call, capability: capabilityId, text, isError: true });
    return { text, isError: true };
  }
}

/**
 * Tool errors, and the file-system and process errors of the work a tool does, are the model's
 * to handle. Anything else (a TypeError, a RangeError) is a bug in our code.
 */
function isModelFacing(error: unknown): boolean {
  if (error instanceof ToolError) return true;
  if (error instanceof DOMException) {
    return error.name === "AbortError" || error.name === "TimeoutError";
  }
  return error instanceof Error && Object.values(Deno.errors).some((kind) => error instanceof kind);
}

function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const e = error as Error;
  return new ToolError(`${e.name}: ${e.message}`);
}
