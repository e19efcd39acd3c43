import { ToolError } from "../errors.ts";
import {
  renderResult,
  renderResultParts,
  renderToolError,
  resolveCall,
  type ResolvedCall,
  resultIsError,
  UnknownToolError,
} from "../harness/call.ts";
import { unknownToolError } from "../harness/_error_texts.ts";
import type { Harness } from "../harness/types.ts";
import { withGrant } from "../tools/capability.ts";
import type { ToolContext, TurnContext } from "../tools/types.ts";
import type { LoopEvent, ToolCallInfo, ToolFailure } from "./events.ts";
import type { ImageData } from "../tools/tool_source.ts";
import { ProgressThrottle } from "./_progress.ts";
import { sourceImages } from "./tool_sources.ts";
import { imageResultParts } from "../tools/image_view.ts";
import { type AfterDecision, type HookCall, ToolHookChain } from "./tool_hooks.ts";

/** A tool call's outcome as text for the model. */
export interface DispatchResult {
  text: string;
  isError: boolean;
  /** The capability's structured output, when the call succeeded. */
  output?: unknown;
  /** Images sent after the text (a source tool's), unless a hook replaced the result. */
  images?: ImageData[];
  /** The text in parts, where the tool's result has them (`result.parts`); `text` joins them. */
  parts?: string[];
}

/** A call's result after the hook chain: notes to add after it, and a stop if a link asked. */
export interface DispatchOutcome extends DispatchResult {
  notes: string[];
  stop?: AfterDecision["stop"];
}

/** What dispatching a call needs. */
export interface DispatchDeps {
  harness: Harness;
  ctx: TurnContext;
  emit: (event: LoopEvent) => void;
  /** The links every call passes; none allows every call inside the sandbox. */
  hooks?: ToolHookChain;
  /** The call comes from code-mode source, which alone may reach the nested tools. */
  nested?: boolean;
  /**
   * Pictures of code-mode nested calls not yet sent: a top-level call's result takes them along
   * (set by `withNestedTools`).
   */
  pendingImages?: ImageData[];
  /** Finds a call's tool; default the harness's own (`resolveCall`). */
  resolve?: (call: { name: string; args: unknown; rawArgs?: string }) => ResolvedCall;
}

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
 * Runs one tool call: map its wire arguments onto the capability, pass it through the hook
 * chain's `before` links, run it (its progress throttled into `tool_progress` events), render
 * the result in the harness's format, and give that to the `after` links. Failures the model
 * can act on come back as error results; they never end the run.
 */
export async function dispatchToolCall(
  call: ToolCallInfo & { rawArgs?: string },
  deps: DispatchDeps,
): Promise<DispatchOutcome> {
  const hooks = deps.hooks ?? new ToolHookChain();
  const hookCall: HookCall = { ...call };
  const result = await runCall(call, deps, hooks, hookCall);
  const after = await hooks.after(hookCall, result, deps.ctx.signal).catch((error) => {
    // A link that fails is a bug like a failing capability: the turn ends, visibly.
    throw new InternalToolError(call.name, error);
  });
  const images = after.result === result ? result.images : undefined;
  return {
    ...after.result,
    ...(images?.length ? { images } : {}),
    notes: after.notes,
    ...(after.stop ? { stop: after.stop } : {}),
  };
}

async function runCall(
  call: ToolCallInfo & { rawArgs?: string },
  deps: DispatchDeps,
  hooks: ToolHookChain,
  hookCall: HookCall,
): Promise<DispatchResult> {
  const { harness, emit } = deps;
  let capabilityId: string | undefined;
  try {
    const resolved = (deps.resolve ?? ((c) => resolveCall(harness, c)))(call);
    checkReachable(resolved, call.name, deps);
    const capability = resolved.capability;
    capabilityId = capability.id;
    Object.assign(hookCall, {
      capability: capabilityId,
      mutates: capability.mutates,
      input: resolved.input,
    });
    emit({ type: "tool_start", call, capability: capabilityId, input: resolved.input });
    const decision = await hooks.before(
      { ...hookCall, capability: capabilityId, mutates: capability.mutates, input: resolved.input },
      deps.ctx.signal,
    );
    if (!decision.allow) throw new ToolError(decision.reason);
    const input = decision.rewrittenBy === undefined
      ? decision.input
      : rewrittenInput(resolved, decision.input, decision.rewrittenBy);
    hookCall.input = input;
    const output = await runWithProgress(resolved, withGrant(input, decision.unsandboxed), {
      call,
      deps,
    });
    const { text, ...withParts } = rendered(resolved.tool, output);
    const isError = resultIsError(resolved.tool, output);
    // The call ran, so front ends show its output; the wire still flags a failed result (a
    // non-zero exit, where the harness says so) as its vendor does.
    const failure: ToolFailure | undefined = !isError
      ? undefined
      : capabilityId === "shell.run"
      ? "command"
      : "other";
    emit({
      type: "tool_end",
      call,
      capability: capabilityId,
      output,
      text,
      isError: false,
      ...(failure ? { failure } : {}),
    });
    const images = resultImages(capabilityId, output, deps);
    return { text, isError, output, ...withParts, ...(images.length ? { images } : {}) };
  } catch (error) {
    if (deps.ctx.signal.aborted && isModelFacing(error)) {
      // Whatever the call was doing when the user stopped the turn, the model reads the
      // harness's own words for an interruption, not the abort's message.
      if (capabilityId === undefined) emit({ type: "tool_start", call });
      const text = harness.interruptedText;
      emit({
        type: "tool_end",
        call,
        capability: capabilityId,
        text,
        isError: true,
        interrupted: true,
      });
      return { text, isError: true };
    }
    if (!isModelFacing(error)) {
      emit({ type: "tool_end", call, capability: capabilityId, text: "", isError: true });
      throw new InternalToolError(call.name, error);
    }
    const toolError = asToolError(error);
    if (capabilityId === undefined) emit({ type: "tool_start", call });
    const text = renderToolError(harness, toolError);
    const failure = failureOf(toolError, capabilityId);
    emit({ type: "tool_end", call, capability: capabilityId, text, isError: true, failure });
    return { text, isError: true };
  }
}

/** A nested tool (code mode) is no tool of the model's own: called directly, it is unknown. */
function checkReachable(resolved: ResolvedCall, name: string, deps: DispatchDeps): void {
  if (!resolved.tool.nested || deps.nested) return;
  const sent = deps.harness.tools.filter((t) => !t.nested).map((t) => t.declaration.name);
  throw unknownToolError(deps.harness, name, sent, `Available tools: ${sent.join(", ")}`);
}

/** The rendered result, with its parts where the tool's result has them. */
function rendered(tool: ResolvedCall["tool"], output: unknown): { text: string; parts?: string[] } {
  // An image (view_image, a Read of a picture) is its one-line note, whatever the template.
  const image = imageResultParts(output);
  if (image) return { text: image.text };
  if (!tool.result.parts) return { text: renderResult(tool, output) };
  const parts = renderResultParts(tool, output);
  return { text: parts.join(""), parts };
}

/**
 * The pictures a result sends: its own (an image result's, a source tool's), then, for a call
 * the model made, those of code-mode nested calls since the last result.
 */
function resultImages(capability: string, output: unknown, deps: DispatchDeps): ImageData[] {
  return [
    ...(imageResultParts(output)?.images ?? sourceImages(capability, output)),
    ...(deps.nested ? [] : deps.pendingImages?.splice(0) ?? []),
  ];
}

/** A call that failed before its tool was found failed on its name or its arguments. */
function failureOf(error: ToolError, capabilityId: string | undefined): ToolFailure {
  if (capabilityId !== undefined) return "other";
  return error instanceof UnknownToolError ? "unknown_tool" : "arguments";
}

/** Runs the capability with a context for this call, its progress throttled into events. */
async function runWithProgress(
  resolved: ResolvedCall,
  input: unknown,
  { call, deps }: { call: ToolCallInfo; deps: DispatchDeps },
): Promise<unknown> {
  const throttle = new ProgressThrottle((chunk) =>
    deps.emit({ type: "tool_progress", callId: call.id, ...chunk })
  );
  const ctx: ToolContext = {
    ...deps.ctx,
    callId: call.id,
    toolName: call.name,
    progress: (chunk) => throttle.push(chunk),
  };
  try {
    return await resolved.capability.run(input, ctx);
  } finally {
    throttle.close();
  }
}

/** A hook's rewritten input, checked like the model's own. */
function rewrittenInput(resolved: ResolvedCall, input: unknown, hook: string): unknown {
  const parsed = resolved.capability.input.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`);
  throw new ToolError(
    `The ${hook} hook rewrote the input of ${resolved.tool.declaration.name} into one it ` +
      `cannot run with (${problems.join("; ")}), so it was not run`,
  );
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
