/** OpenAI Responses API: request body, stream reducer and provider. */
import type { Block, ModelRequest, SystemPart, Usage } from "../model/message.ts";
import { emptyUsage, joinedSystem } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import {
  abortedEvent,
  deltaEvent,
  doneEvent,
  newToolCall,
  num,
  rec,
  replayArgs,
  str,
  type TextLikeBlock,
  type ToolCallBlock,
} from "./_blocks.ts";
import { sseProvider } from "./_sse.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import { isTransientKind } from "./_http.ts";
import { openaiRequest } from "./_openai_request.ts";
import { finishBody, planRequest, type RequestPlan } from "./_request_settings.ts";
import {
  additionalToolsItem,
  appendInput,
  callItem,
  callNamespace,
  classicTools,
  customCallBlock,
  outputType,
  resultOutput,
  settleInput,
} from "./_responses_code_mode.ts";
import type { Provider, ProviderSettings } from "./types.ts";

type Json = Record<string, unknown>;

/**
 * Builds the Responses request body. Requests are stateless (`store: false` unless the harness
 * says otherwise); reasoning is replayed from its encrypted content, which the harness's
 * `include` asks for. System parts go to `instructions` or, as the harness lays them out, to
 * developer messages at the start of `input`.
 */
export function toWire(request: ModelRequest, settings: Pick<ProviderSettings, "compat">): Json {
  const { compat } = settings;
  const plan = planRequest(request, "responses", compat);
  const { spec } = plan;
  const input: Json[] = developerItems(request.system);
  const freeform = new Set<string>();
  // Developer messages mid-conversation, unless the endpoint says it takes none (OpenRouter).
  for (const message of foldSystemMessages(request.messages, compat.systemMessages !== false)) {
    if (message.role === "user") {
      const role = message.systemRole ? "developer" : "user";
      input.push({ type: "message", role, content: inputParts(message.blocks) });
    } else if (message.role === "assistant") {
      for (const b of message.blocks) if (b.type === "tool_call" && b.freeform) freeform.add(b.id);
      input.push(...assistantItems(message.blocks));
    } else {
      const output = resultOutput(message.blocks, inputParts);
      const type = outputType(freeform.has(message.callId));
      input.push({ type, call_id: message.callId, output });
    }
  }
  const body: Json = { model: request.model, input, stream: true, store: false };
  const instructions = joinedSystem(request.system.filter((p) => p.slot === "system"));
  if (instructions) body.instructions = instructions;
  const hasTools = request.tools.length > 0;
  if (hasTools && spec.toolsItem) input.unshift(additionalToolsItem(request.tools, spec));
  else if (hasTools) body.tools = classicTools(request.tools, spec);
  // Codex's hosted tool, where the harness declares it (not code mode) and the provider runs it.
  const search = request.webSearch ?? "cached";
  if (spec.hostedWebSearch && !spec.toolsItem && compat.hostedWebSearch && search !== "disabled") {
    const tool = { type: "web_search", external_web_access: search === "live" };
    body.tools = [...(body.tools as Json[] ?? []), tool];
  }
  if (hasTools) {
    body.tool_choice = "auto";
    body.parallel_tool_calls = true;
  }
  const reasoning = spec.reasoning === false ? undefined : reasoningParams(plan);
  if (reasoning) body.reasoning = reasoning;
  const include = (spec.include ?? (reasoning ? ["reasoning.encrypted_content"] : []))
    .filter((entry) => spec.reasoning !== false || !entry.startsWith("reasoning."));
  if (include.length > 0) body.include = include;
  if (plan.maxOutputTokens) body.max_output_tokens = plan.maxOutputTokens;
  const verbosity = request.verbosity ?? spec.verbosity;
  if (verbosity) body.text = { verbosity };
  if (request.outputSchema) {
    const { name, schema, strict } = request.outputSchema;
    body.text = { ...rec(body.text), format: { type: "json_schema", name, strict, schema } };
  }
  return finishBody(body, plan, {
    compat,
    sessionId: request.sessionId,
    thinkingOn: spec.reasoning !== false && reasoning !== undefined,
    hasTools,
  });
}

/** `reasoning`: the effort and the summary, when either is asked for. */
function reasoningParams(plan: RequestPlan): Json | undefined {
  const out: Json = {};
  if (plan.wireEffort) out.effort = plan.wireEffort;
  if (plan.wireEffort && plan.spec.reasoningContext) out.context = plan.spec.reasoningContext;
  // With an effort and no summary setting, a summary is asked for, so the user sees one.
  const summary = plan.reasoningSummary ?? (plan.wireEffort ? "auto" : undefined);
  if (summary && summary !== "none") out.summary = summary;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Developer parts as developer messages; a part with `samePart` joins the message before it. */
function developerItems(parts: SystemPart[]): Json[] {
  const items: Json[] = [];
  for (const part of parts) {
    if (part.slot !== "developer" || !part.text) continue;
    const content = { type: "input_text", text: part.text };
    const last = items.at(-1);
    if (part.samePart && last) (last.content as Json[]).push(content);
    else items.push({ type: "message", role: "developer", content: [content] });
  }
  return items;
}

function inputParts(blocks: Block[]): Json[] {
  return blocks.flatMap((b): Json[] => {
    if (b.type === "text") return [{ type: "input_text", text: b.text }];
    if (b.type === "image") {
      return [{
        type: "input_image",
        image_url: `data:${b.mime};base64,${b.base64}`,
        detail: "auto",
      }];
    }
    return [];
  });
}

/**
 * Output items in block order. Only thinking that came from a Responses server with encrypted
 * content is replayed: with `store: false` a bare reasoning id cannot be resolved.
 */
function assistantItems(blocks: Block[]): Json[] {
  const items: Json[] = [];
  for (const block of blocks) {
    const last = items.at(-1);
    if (block.type === "text" && block.text !== "") {
      const part = { type: "output_text", text: block.text };
      if (last?.type === "message") (last.content as Json[]).push(part);
      else items.push({ type: "message", role: "assistant", content: [part] });
    } else if (block.type === "thinking" && block.id && block.encrypted) {
      const summary = block.text === "" ? [] : [{ type: "summary_text", text: block.text }];
      items.push({ type: "reasoning", id: block.id, summary, encrypted_content: block.encrypted });
    } else if (block.type === "tool_call") {
      items.push(callItem(block, replayArgs(block)));
    }
  }
  return items;
}

/** What the reducer has seen of one streamed response. */
export interface ResponsesState {
  blocks: Block[];
  /** Blocks by output item id (or `#<output_index>` when a server sends no id). */
  items: Map<string, Block>;
  /** The last summary part index seen per reasoning item, to separate parts. */
  parts: Map<string, number>;
  usage: Usage;
  status?: "completed" | "incomplete";
  incompleteReason?: string;
  /** A `refusal` content part came: the model declined; its text is the reply's text. */
  refused?: boolean;
}

/** A fresh reducer state. */
export function initResponsesState(): ResponsesState {
  return { blocks: [], items: new Map(), parts: new Map(), usage: emptyUsage() };
}

function itemKey(id: unknown, index: unknown): string {
  return str(id) || `#${num(index)}`;
}

/** The block for an item, created with `make` (and appended) on first sight. */
function blockFor<B extends Block>(state: ResponsesState, key: string, make: () => B): B {
  let block = state.items.get(key);
  if (!block) {
    block = make();
    state.items.set(key, block);
    state.blocks.push(block);
  }
  return block as B;
}

function textBlock(state: ResponsesState, key: string, kind: "text" | "thinking") {
  return blockFor<TextLikeBlock>(state, key, () => ({ type: kind, text: "" }));
}

/** Reduces one Responses stream event into `state`; returns the events it produced. */
export function fromWire(chunk: unknown, state: ResponsesState): StreamEvent[] {
  const e = rec(chunk);
  const key = itemKey(e.item_id, e.output_index);
  const delta = str(e.delta) ?? "";
  switch (e.type) {
    case "response.output_item.added":
    case "response.output_item.done":
      return outputItem(rec(e.item), itemKey(rec(e.item).id, e.output_index), state);
    case "response.refusal.delta":
      state.refused = true;
      textBlock(state, key, "text").text += delta;
      return delta ? [deltaEvent("text", delta)] : [];
    case "response.output_text.delta":
      textBlock(state, key, "text").text += delta;
      return delta ? [deltaEvent("text", delta)] : [];
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta": {
      const block = textBlock(state, key, "thinking");
      const part = num(e.summary_index ?? e.content_index);
      const text = block.text !== "" && state.parts.get(key) !== part ? `\n\n${delta}` : delta;
      state.parts.set(key, part);
      block.text += text;
      return text ? [deltaEvent("thinking", text)] : [];
    }
    case "response.custom_tool_call_input.delta":
      appendInput(state.items.get(key), delta);
      return [];
    case "response.function_call_arguments.delta": {
      const call = state.items.get(key);
      if (call?.type !== "tool_call" || !delta) return [];
      call.rawArgs = (call.rawArgs ?? "") + delta;
      return [{ type: "tool_call_delta", id: call.id, argsDelta: delta }];
    }
    case "response.completed":
    case "response.incomplete":
      return completed(rec(e.response), state);
    case "response.failed": {
      const error = rec(rec(e.response).error);
      return [failure(str(error.message) ?? "no reason given", error.code)];
    }
    case "error":
      return [failure(str(e.message) ?? "no reason given", e.code)];
    default:
      return [];
  }
}

/** Handles `output_item.added` and `.done`; `.done` fills in what deltas did not carry. */
function outputItem(item: Json, key: string, state: ResponsesState): StreamEvent[] {
  const seen = state.items.has(key);
  if (item.type === "custom_tool_call") {
    const call = blockFor<ToolCallBlock>(state, key, () => customCallBlock(item, key));
    settleInput(call, item);
    return seen ? [] : [{ type: "tool_call_start", id: call.id, name: call.name }];
  }
  if (item.type === "function_call") {
    const id = str(item.call_id) ?? str(item.id) ?? key;
    const call = blockFor<ToolCallBlock>(state, key, () => newToolCall(id, str(item.name) ?? ""));
    const namespace = callNamespace(item);
    if (namespace) call.namespace = namespace;
    const events: StreamEvent[] = seen ? [] : [{ type: "tool_call_start", id, name: call.name }];
    const args = str(item.arguments);
    const sofar = call.rawArgs ?? "";
    if (args !== undefined && args !== sofar) {
      if (args.startsWith(sofar)) {
        events.push({ type: "tool_call_delta", id: call.id, argsDelta: args.slice(sofar.length) });
      }
      call.rawArgs = args;
    }
    return events;
  }
  if (item.type === "reasoning") {
    const block = textBlock(state, key, "thinking");
    if (block.type !== "thinking") return [];
    if (str(item.id)) block.id = str(item.id);
    if (str(item.encrypted_content)) block.encrypted = str(item.encrypted_content);
    const parts = Array.isArray(item.summary) ? item.summary : [];
    const summary = parts.map((p) => str(rec(p).text) ?? "").filter(Boolean).join("\n\n");
    if (block.text !== "" || summary === "") return [];
    block.text = summary;
    return [deltaEvent("thinking", summary)];
  }
  if (item.type === "web_search_call") {
    // A search the server ran: shown, not replayed (`store: false`).
    const query = str(rec(item.action).query) ?? "";
    const events: StreamEvent[] = seen ? [] : [{ type: "hosted_tool_start", id: key, query }];
    state.items.set(key, { type: "text", text: "" });
    const failed = item.status === "failed";
    if (failed || item.status === "completed") {
      events.push({ type: "hosted_tool_end", id: key, query, failed });
    }
    return events;
  }
  if (item.type === "message") {
    const block = textBlock(state, key, "text");
    const parts = Array.isArray(item.content) ? item.content : [];
    if (parts.some((p) => rec(p).type === "refusal")) state.refused = true;
    const text = parts.map((p) => str(rec(p).text) ?? str(rec(p).refusal) ?? "").join("");
    if (block.text !== "" || text === "") return [];
    block.text = text;
    return [deltaEvent("text", text)];
  }
  return [];
}

function completed(response: Json, state: ResponsesState): StreamEvent[] {
  const u = rec(response.usage);
  state.usage = {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cachedInputTokens: num(rec(u.input_tokens_details).cached_tokens),
    reasoningTokens: num(rec(u.output_tokens_details).reasoning_tokens),
  };
  state.status = response.status === "incomplete" ? "incomplete" : "completed";
  state.incompleteReason = str(rec(response.incomplete_details).reason);
  return [];
}

function failure(message: string, code: unknown): StreamEvent {
  const detail = typeof code === "string" ? `${message} (${code})` : message;
  return {
    type: "error",
    error: { message: `Response failed: ${detail}`, retryable: isTransientKind(code) },
  };
}

/** The last event of a response: `done`, or an error when `response.completed` never came. */
export function finishResponses(state: ResponsesState, how: "complete" | "aborted"): StreamEvent {
  if (how === "aborted") return abortedEvent(state.blocks, state.usage);
  if (!state.status) {
    const message = "Stream ended before the response completed: no response.completed event";
    return { type: "error", error: { message, retryable: true } };
  }
  const incomplete = state.status === "incomplete" ? state.incompleteReason : undefined;
  const stop = state.refused || incomplete === "content_filter"
    ? "refusal"
    : incomplete === "max_output_tokens"
    ? "max_tokens"
    : "end_turn";
  return doneEvent(state.blocks, stop, state.usage);
}

/** A provider that speaks the Responses API: POST `${base_url}/responses`, read SSE. */
export function createResponsesProvider(settings: ProviderSettings): Provider {
  return sseProvider(settings, {
    request: (request) =>
      openaiRequest(settings, {
        path: "/responses",
        body: toWire(request, settings),
        headers: planRequest(request, "responses", settings.compat).headers,
      }),
    init: initResponsesState,
    step: fromWire,
    finish: finishResponses,
  });
}
