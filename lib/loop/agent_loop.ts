import { advertisedTools, checkLoaded, toolCatalog } from "../harness/deferred.ts";
import type { Harness, ProtocolResult } from "../harness/types.ts";
import type { Block, Message, ModelRequest, SystemPart, Usage } from "../model/message.ts";
import type { RequestOptions } from "./request_options.ts";
import { addUsage, emptyUsage, textOf } from "../model/message.ts";
import type { ProviderFailure } from "../model/stream.ts";
import type { Provider } from "../providers/types.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import type { TurnContext } from "../tools/types.ts";
import { type DispatchDeps, dispatchToolCall, InternalToolError } from "./dispatch.ts";
import { laterParts, withNestedTools } from "./nested_tools.ts";
import type { LoopEvent, ToolCallInfo, TurnOutcome } from "./events.ts";
import { CallMarkupHoldback } from "./_call_markup_holdback.ts";
import { type CutReply, WatchedReply } from "./_watched_reply.ts";
import { repairToolCalls } from "./tool_call_repair.ts";
import { type ReplyCut, ToolHookChain, type ToolHooks } from "./tool_hooks.ts";
import { type SourcePlacement, turnTools } from "./tool_sources.ts";
import { contextWith } from "./live_context.ts";

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

export type { RequestOptions } from "./request_options.ts";

/** What the loop needs from the outside world. */
export interface LoopDeps {
  provider: Provider;
  harness: Harness;
  /** The turn's tool context; the loop makes each call's own from it. */
  ctx: TurnContext;
  emit: (event: LoopEvent) => void;
  /**
   * The links every tool call passes (approval, loop guard, reminders, user hooks), made anew
   * for each turn. The session's approval is one of them: no tool runs without the chain.
   */
  toolHooks: ToolHooks;
  /** Tools that do not come from the harness (MCP servers), asked at the start of each turn. */
  toolSources?: readonly ToolSource[];
  /** Whether source tools are sent at once or deferred; default at once. */
  sourcePlacement?: SourcePlacement;
  /** Shows the user one line (a session warning): source tools whose wire names collide. */
  warn?: (message: string) => void;
  /**
   * Runs before each model request; the session compacts the history here when it is full. An
   * outcome it returns (a spending limit reached) ends the turn instead of the request.
   */
  beforeRequest?: (signal: AbortSignal) => Promise<TurnOutcome | void>;
  /** Most model requests in one turn before the loop stops (`max_turn_steps`); default 1000. */
  maxSteps?: number;
  /** Recover tool calls a reply wrote as text (`tool_call_repair`); default true. */
  toolCallRepair?: boolean;
}

/** What one turn runs with: the deps, the turn's tools and its hook chain. */
type Turn = LoopDeps & DispatchDeps & { signal: AbortSignal; hooks: ToolHookChain };

/**
 * Model requests one turn may make when the caller sets no limit. Generous on purpose: long real
 * tasks need hundreds; the loop guard, not this ceiling, is what stops a model that repeats itself.
 */
const DEFAULT_MAX_STEPS = 1000;

/**
 * Runs one user turn: request, stream, run the tool calls, send the results, and repeat until
 * the model answers without calling a tool. Knows no harness by name: everything
 * harness-specific comes from `deps.harness`, and every tool call passes `deps.toolHooks`.
 */
export async function runTurn(
  state: LoopState,
  deps: LoopDeps & { signal: AbortSignal },
): Promise<TurnOutcome> {
  const limit = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  const turnUsage = emptyUsage();
  const finish = (outcome: TurnOutcome) => {
    deps.emit({ type: "turn_end", outcome, usage: turnUsage });
    return outcome;
  };
  const turn = await startTurn(deps);
  for (let step = 0; step < limit; step++) {
    if (deps.signal.aborted) return finish({ status: "aborted" });
    const stopped = await deps.beforeRequest?.(deps.signal);
    if (stopped) return finish(stopped);
    deps.emit({ type: "model_request", index: step });
    const reply = await streamReply(state, turn);
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
    if (reply.message.stop === "refusal") {
      return finish({
        status: "completed",
        finalText: textOf(reply.message.blocks),
        refused: true,
      });
    }
    if ("cut" in reply) {
      const stopped = await answerCut(state, turn, reply.cut);
      if (stopped) return finish(stopped);
      continue;
    }
    if (turn.harness.protocol) {
      const done = await runTextProtocolStep(state, turn, step).catch(internalFailure);
      if (done) return finish(done);
      if (deps.signal.aborted) return finish({ status: "aborted" });
      continue;
    }
    const calls = reply.message.blocks.filter((b) => b.type === "tool_call");
    if (calls.length === 0) {
      return finish({ status: "completed", finalText: textOf(reply.message.blocks) });
    }
    const ended = await runToolCalls(calls, state, turn) ?? await afterCalls(state, turn);
    if (ended) return finish(ended);
    if (deps.signal.aborted) return finish({ status: "aborted" });
  }
  return finish({ status: "step_limit", limit });
}

/**
 * After a reply's tool calls: the links' `afterReply` notes go after the last result, and a
 * stop ends the turn.
 */
async function afterCalls(state: LoopState, turn: Turn): Promise<TurnOutcome | undefined> {
  if (turn.signal.aborted) return undefined;
  const { notes, stop } = await turn.hooks.afterReply({}, turn.signal);
  const last = state.messages.at(-1);
  if (notes.length && last?.role === "tool_result" && last.blocks[0]?.type === "text") {
    const text = [last.blocks[0].text, ...notes].join("\n\n");
    last.blocks = [{ ...last.blocks[0], text }, ...last.blocks.slice(1)];
  }
  return stop?.outcome;
}

/**
 * A reply a link cut off while it streamed: the model reads why (and the links' notes) in the
 * next message, and the turn goes on unless a link stops it.
 */
async function answerCut(
  state: LoopState,
  turn: Turn,
  cut: ReplyCut,
): Promise<TurnOutcome | undefined> {
  const { channel, span, repeats } = cut;
  turn.emit({ type: "reply_cut", channel, span, repeats });
  const { notes, stop } = await turn.hooks.afterReply({ cut }, turn.signal);
  const text = [cut.message, ...notes].join("\n\n");
  state.messages.push({ role: "user", blocks: [{ type: "text", text, context: true }] });
  return stop?.outcome;
}

/**
 * The turn's tools (the harness's and the sources'), its hook chain, and a context whose tool
 * catalog runs deferred calls through that chain too.
 */
async function startTurn(deps: LoopDeps & { signal: AbortSignal }): Promise<Turn> {
  const tools = await turnTools(deps.harness, deps.toolSources ?? [], {
    placement: deps.sourcePlacement,
    signal: deps.signal,
    warn: deps.warn,
  });
  const { state } = deps.ctx;
  const { tokensUsed } = deps.ctx;
  const hooks = new ToolHookChain(deps.toolHooks({ harness: tools.harness, state, tokensUsed }));
  const catalog = toolCatalog(tools.harness, state, {
    resolve: tools.resolve,
    guard: (call, resolved) =>
      hooks.before({ ...call, ...resolved, mutates: resolved.mutates ?? true }, deps.signal),
  });
  return withNestedTools({
    ...deps,
    harness: tools.harness,
    // A direct call to a deferred tool not loaded yet is refused where the harness says so.
    resolve: (call) => {
      checkLoaded(tools.harness, state, call.name, deps.ctx.planMode?.on === true);
      return tools.resolve(call);
    },
    ctx: contextWith(deps.ctx, { toolCatalog: catalog }),
    hooks,
  });
}

/**
 * Runs a reply's tool calls in order and appends their results. Returns the outcome when a bug
 * or a hook's stop ends the turn.
 */
async function runToolCalls(
  calls: Array<Extract<Block, { type: "tool_call" }>>,
  state: LoopState,
  turn: Turn,
): Promise<TurnOutcome | undefined> {
  let bug: TurnOutcome | undefined;
  let stop: { outcome: TurnOutcome; reason: string } | undefined;
  for (const call of calls) {
    // Every call gets a result, even after Ctrl-C, a bug or a stop, so the history stays valid.
    let text: string;
    let isError: boolean;
    let images: Block[] = [];
    if (turn.signal.aborted) {
      [text, isError] = [turn.harness.interruptedText, true];
    } else if (bug) {
      [text, isError] = ["Not run: an internal error stopped the turn", true];
    } else if (stop) {
      [text, isError] = [`Not run: ${stop.reason}`, true];
    } else {
      try {
        const result = await dispatchToolCall(call, turn);
        text = [result.parts?.[0] ?? result.text, ...result.notes].join("\n\n");
        isError = result.isError;
        images = laterParts(result);
        stop = result.stop;
      } catch (error) {
        bug = internalFailure(error);
        [text, isError] = ["Not run: an internal error stopped the turn", true];
      }
    }
    state.messages.push({
      role: "tool_result",
      callId: call.id,
      name: call.name,
      blocks: [{ type: "text", text }, ...images],
      isError,
    });
  }
  return bug ?? stop?.outcome;
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

/** A reply: complete, cut off by a link, or failed. */
type Reply =
  | { message: Message & { role: "assistant" } }
  | CutReply
  | { failure: ProviderFailure };

async function streamReply(state: LoopState, deps: Turn): Promise<Reply> {
  const tools = deps.harness.protocol
    ? []
    : advertisedTools(deps.harness, deps.ctx.state, deps.ctx.planMode?.on === true);
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
  const watched = new WatchedReply(deps.hooks);
  // Returning from the loop closes the stream: a cut-off reply is not read to its end.
  for await (const event of deps.provider.stream(request, deps.signal)) {
    switch (event.type) {
      case "text_delta": {
        const cut = watched.push("text", event.text);
        if (cut) return cut;
        const text = holdback ? holdback.push(event.text) : event.text;
        if (text) deps.emit({ type: "text_delta", text });
        break;
      }
      case "retry":
        if (event.discarded) {
          holdback?.reset();
          watched.reset();
        }
        deps.emit(event);
        break;
      case "thinking_delta": {
        const cut = watched.push("reasoning", event.text);
        if (cut) return cut;
        deps.emit(event);
        break;
      }
      case "hosted_tool_start":
      case "hosted_tool_end":
        deps.emit((await import("./hosted_tools.ts")).hostedToolEvent(event));
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
 * and answer with a user message (the notes of the hook chain after the observation). Returns
 * the outcome when the model has finished or a hook stopped the turn.
 */
async function runTextProtocolStep(
  state: LoopState,
  turn: Turn,
  step: number,
): Promise<TurnOutcome | undefined> {
  const protocol = turn.harness.protocol!;
  const reply = state.messages.at(-1)!;
  const parsed = protocol.parse(textOf(reply.blocks), turn.ctx.state);
  if (parsed.kind === "finish") return { status: "completed", finalText: parsed.finalText };
  if (parsed.kind === "format_error") turn.emit({ type: "format_error" });
  let text = parsed.kind === "format_error" ? parsed.message : "";
  let stopped: TurnOutcome | undefined;
  const notes: string[] = [];
  if (parsed.kind === "calls") {
    const results: ProtocolResult[] = [];
    for (const [i, call] of parsed.calls.entries()) {
      const info: ToolCallInfo = { id: `text_${step}_${i}`, ...call };
      const { text, isError, output, notes: added, stop } = await dispatchToolCall(info, turn);
      results.push({ ...call, text, isError, ...(output !== undefined ? { output } : {}) });
      notes.push(...added);
      stopped = stop?.outcome;
      if (turn.signal.aborted || stopped) break;
    }
    const observed = protocol.observation(results, turn.ctx.state);
    if (typeof observed !== "string") return { status: "completed", finalText: observed.finalText };
    text = observed;
  }
  if (!stopped && !turn.signal.aborted) {
    const formatError = parsed.kind === "format_error" ? parsed.message : undefined;
    const after = await turn.hooks.afterReply({ formatError }, turn.signal);
    notes.push(...after.notes);
    stopped = after.stop?.outcome;
  }
  text = [text, ...notes].join("\n\n");
  state.messages.push({ role: "user", blocks: [{ type: "text", text }] });
  return stopped;
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
