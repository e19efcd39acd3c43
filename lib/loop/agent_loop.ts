import { advertisedTools } from "../harness/deferred.ts";
import { todoReminderAfterCall } from "../harness/reminders.ts";
import type { Harness, ProtocolResult } from "../harness/types.ts";
import type { Block, Message, ModelRequest, SystemPart, Usage } from "../model/message.ts";
import { addUsage, emptyUsage, textOf } from "../model/message.ts";
import type { ProviderFailure } from "../model/stream.ts";
import type { Provider } from "../providers/types.ts";
import type { ToolContext } from "../tools/capability.ts";
import {
  type BeforeToolCall,
  type DispatchResult,
  dispatchToolCall,
  InternalToolError,
} from "./dispatch.ts";
import type { LoopEvent, TurnOutcome } from "./events.ts";
import { DEFAULT_LOOP_GUARD_REPEATS, LoopGuard } from "./loop_guard.ts";
import { CallMarkupHoldback } from "./_call_markup_holdback.ts";
import { repairToolCalls } from "./tool_call_repair.ts";

/** The conversation the loop extends. Callers own it; the loop appends to `messages`. */
export interface LoopState {
  model: string;
  system: SystemPart[];
  messages: Message[];
  usage: Usage;
  reasoningEffort?: ModelRequest["reasoningEffort"];
  /** Set while a turn must end in JSON matching a schema (`--output-schema`). */
  outputSchema?: ModelRequest["outputSchema"];
  /** The user's request settings (config) and the session id, over the harness's. */
  requestOptions?: RequestOptions;
}

/** What a user can set over a harness's request settings, and the session id they may use. */
export type RequestOptions = Pick<
  ModelRequest,
  "thinking" | "reasoningSummary" | "verbosity" | "maxOutputTokens" | "maxOutputCap" | "sessionId"
>;

/** What the loop needs from the outside world. */
export interface LoopDeps {
  provider: Provider;
  harness: Harness;
  ctx: ToolContext;
  emit: (event: LoopEvent) => void;
  /** The session's approval path; no tool runs without it. */
  beforeToolCall: BeforeToolCall;
  /** Runs before each model request; the session compacts the history here when it is full. */
  beforeRequest?: (signal: AbortSignal) => Promise<void>;
  /** Most model requests in one turn before the loop stops (`max_turn_steps`); default 1000. */
  maxSteps?: number;
  /** Recover tool calls a reply wrote as text (`tool_call_repair`); default true. */
  toolCallRepair?: boolean;
  /** Repeats of one failing call that make the loop guard step in; 0 turns it off; default 3. */
  loopGuardRepeats?: number;
}

/**
 * Model requests one turn may make when the caller sets no limit. Generous on purpose: long real
 * tasks need hundreds; the loop guard, not this ceiling, is what stops a model that repeats itself.
 */
export const DEFAULT_MAX_STEPS = 1000;

/**
 * Runs one user turn: request, stream, run the tool calls, send the results, and repeat until
 * the model answers without calling a tool. Knows no harness by name: everything
 * harness-specific comes from `deps.harness`.
 */
export async function runTurn(
  state: LoopState,
  deps: LoopDeps & { signal: AbortSignal },
): Promise<TurnOutcome> {
  const limit = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  const guard = new LoopGuard(deps.loopGuardRepeats ?? DEFAULT_LOOP_GUARD_REPEATS, deps.harness);
  const turnUsage = emptyUsage();
  const finish = (outcome: TurnOutcome) => {
    deps.emit({ type: "turn_end", outcome, usage: turnUsage });
    return outcome;
  };
  for (let step = 0; step < limit; step++) {
    if (deps.signal.aborted) return finish({ status: "aborted" });
    await deps.beforeRequest?.(deps.signal);
    deps.emit({ type: "model_request", index: step });
    const reply = await streamReply(state, deps);
    if ("failure" in reply) {
      if (deps.signal.aborted) return finish({ status: "aborted" });
      return finish({ status: "failed", error: reply.failure });
    }
    if (reply.message.stop === "aborted" || deps.signal.aborted) {
      state.messages.push(reply.message);
      return finish({ status: "aborted" });
    }
    addUsage(turnUsage, reply.message.usage);
    addUsage(state.usage, reply.message.usage);
    state.messages.push(reply.message);
    deps.emit({ type: "assistant_message", message: reply.message });
    if (deps.harness.protocol) {
      const done = await runTextProtocolStep(state, { ...deps, guard }, step).catch(
        internalFailure,
      );
      if (done) return finish(done);
      if (deps.signal.aborted) return finish({ status: "aborted" });
      continue;
    }
    const calls = reply.message.blocks.filter((b) => b.type === "tool_call");
    if (calls.length === 0) {
      return finish({ status: "completed", finalText: textOf(reply.message.blocks) });
    }
    let bug: TurnOutcome | undefined;
    let looping: TurnOutcome | undefined;
    for (const call of calls) {
      // Every call gets a result, even after Ctrl-C or a bug, so the history stays valid.
      let result: DispatchResult;
      let ran = false;
      if (deps.signal.aborted) {
        result = { text: "Interrupted by the user before this tool ran", isError: true };
      } else if (bug) {
        result = { text: "Not run: an internal error stopped the turn", isError: true };
      } else if (looping) {
        result = { text: "Not run: the turn stopped on a repeated failing call", isError: true };
      } else {
        try {
          result = await dispatchToolCall(call, deps);
          ran = true;
        } catch (error) {
          bug = internalFailure(error);
          result = { text: "Not run: an internal error stopped the turn", isError: true };
        }
      }
      const notes = [todoReminderAfterCall(deps.harness, deps.ctx.state)];
      const verdict = ran ? guard.afterCall(call, result) : undefined;
      if (verdict?.action === "remind") notes.push(verdict.text);
      if (verdict?.action === "stop") looping = { status: "repeated_call", call: verdict.call };
      state.messages.push({
        role: "tool_result",
        callId: call.id,
        name: call.name,
        blocks: [{ type: "text", text: [result.text, ...notes.filter(Boolean)].join("\n\n") }],
        isError: result.isError,
      });
    }
    if (bug) return finish(bug);
    if (looping) return finish(looping);
    if (deps.signal.aborted) return finish({ status: "aborted" });
  }
  return finish({ status: "step_limit", limit });
}

/** A bug in a tool fails the turn with the bug's message, never as a result for the model. */
function internalFailure(error: unknown): TurnOutcome {
  if (!(error instanceof InternalToolError)) throw error;
  return {
    status: "failed",
    error: {
      message: error.message,
      hint: "This is a bug in interpreter; please report it with the message above",
      retryable: false,
    },
  };
}

type Reply =
  | { message: Message & { role: "assistant" } }
  | { failure: ProviderFailure };

async function streamReply(
  state: LoopState,
  deps: LoopDeps & { signal: AbortSignal },
): Promise<Reply> {
  const tools = deps.harness.protocol ? [] : advertisedTools(deps.harness, deps.ctx.state);
  const request: ModelRequest = {
    model: state.model,
    system: state.system,
    messages: replayReasoning(
      state.messages,
      deps.harness.reasoningReplay,
      deps.harness.reasoningPlaceholder,
    ),
    tools,
    reasoningEffort: state.reasoningEffort,
    outputSchema: state.outputSchema,
    settings: deps.harness.request,
    ...state.requestOptions,
  };
  // Text-protocol harnesses read commands out of the text themselves.
  const holdback = deps.toolCallRepair !== false && tools.length ? new CallMarkupHoldback() : null;
  for await (const event of deps.provider.stream(request, deps.signal)) {
    switch (event.type) {
      case "text_delta": {
        const text = holdback ? holdback.push(event.text) : event.text;
        if (text) deps.emit({ type: "text_delta", text });
        break;
      }
      case "retry":
        if (event.discarded) holdback?.reset();
        deps.emit(event);
        break;
      case "thinking_delta":
        deps.emit(event);
        break;
      case "done": {
        const repaired = holdback ? await repairToolCalls(event.blocks, tools) : undefined;
        const blocks = repaired?.blocks ?? event.blocks;
        const rest = holdback?.finish(textOf(blocks));
        if (rest) deps.emit({ type: "text_delta", text: rest });
        if (repaired) {
          const { formats } = repaired;
          deps.emit({ type: "tool_calls_repaired", count: formats.length, formats });
        }
        const stop = repaired ? "tool_calls" : event.stop;
        return { message: { role: "assistant", blocks, stop, usage: event.usage } };
      }
      case "error":
        return { failure: event.error };
    }
  }
  return {
    failure: { message: "The provider stream ended without a final event", retryable: true },
  };
}

/**
 * One step of a text-protocol harness: parse the reply just appended, run the commands it holds,
 * and answer with a user message. Returns the outcome when the model has finished.
 */
async function runTextProtocolStep(
  state: LoopState,
  deps: LoopDeps & { signal: AbortSignal; guard: LoopGuard },
  step: number,
): Promise<TurnOutcome | undefined> {
  const protocol = deps.harness.protocol!;
  const reply = state.messages.at(-1)!;
  const parsed = protocol.parse(textOf(reply.blocks), deps.ctx.state);
  if (parsed.kind === "finish") return { status: "completed", finalText: parsed.finalText };
  let text = parsed.kind === "format_error" ? parsed.message : "";
  let looping: TurnOutcome | undefined;
  const notes: string[] = [];
  if (parsed.kind === "calls") {
    const results: ProtocolResult[] = [];
    for (const [i, call] of parsed.calls.entries()) {
      const id = `text_${step}_${i}`;
      const result = await dispatchToolCall({ id, ...call }, deps);
      results.push({ ...call, ...result });
      const verdict = deps.guard.afterCall(call, result);
      if (verdict.action === "remind") notes.push(verdict.text);
      if (verdict.action === "stop") looping = { status: "repeated_call", call: verdict.call };
      if (deps.signal.aborted || looping) break;
    }
    const observed = protocol.observation(results, deps.ctx.state);
    if (typeof observed !== "string") return { status: "completed", finalText: observed.finalText };
    text = observed;
  }
  text = [text, ...notes].join("\n\n");
  state.messages.push({ role: "user", blocks: [{ type: "text", text }] });
  return looping;
}

/**
 * Applies the harness's reasoning carry-over rule to the history sent to the model: keep all
 * reasoning, only the latest turn's, or none; and, with a placeholder, give every replayed
 * tool-calling turn that had no reasoning the placeholder text instead.
 */
export function replayReasoning(
  messages: Message[],
  mode: Harness["reasoningReplay"],
  placeholder?: string,
): Message[] {
  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant");
  return messages.map((m, i) => {
    if (m.role !== "assistant") return m;
    const keep = mode === "all" || (mode === "latest" && i === lastAssistant);
    let blocks: Block[] = keep ? m.blocks : m.blocks.filter((b) => b.type !== "thinking");
    const calls = blocks.some((b) => b.type === "tool_call");
    if (placeholder && keep && calls && !blocks.some((b) => b.type === "thinking")) {
      blocks = [{ type: "thinking", text: placeholder }, ...blocks];
    }
    return blocks === m.blocks ? m : { ...m, blocks };
  });
}
