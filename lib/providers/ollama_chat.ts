/**
 * Ollama's native chat API: request body, NDJSON reducer and provider. Only this API takes
 * `options.num_ctx`, so the model gets the context window an agent needs instead of Ollama's
 * few-thousand-token default. The harness's Chat settings apply (output limit, effort, body keys).
 */
import type { Block, ModelRequest, StopReason, Usage } from "../model/message.ts";
import { emptyUsage, joinedSystem, textOf } from "../model/message.ts";
import type { Effort } from "../model/request_settings.ts";
import type { ProviderFailure, StreamEvent } from "../model/stream.ts";
import {
  abortedEvent,
  appendText,
  deltaEvent,
  doneEvent,
  newToolCall,
  num,
  rec,
  replayArgs,
  str,
  type ToolCallBlock,
} from "./_blocks.ts";
import { driveStream } from "./_drive.ts";
import { endpointUrl, requestHeaders, type WireRequest } from "./_http.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import { finishBody, planRequest, type RequestPlan } from "./_request_settings.ts";
import {
  chooseContextWindow,
  type OllamaModel,
  ollamaRoot,
  showModel,
  supportsTools,
  thinkStyle,
} from "./ollama_api.ts";
import { markPermanent, ollamaFailure, toolsRefusal } from "./ollama_errors.ts";
import { openNdjsonStream } from "./ollama_stream.ts";
import type { Compat, Provider, ProviderSettings } from "./types.ts";

type Json = Record<string, unknown>;

const STOP_REASONS: Record<string, StopReason> = { stop: "end_turn", length: "max_tokens" };

/** Ollama's levels for models that take one (gpt-oss): our five efforts on its three. */
const THINK_LEVELS: Record<Effort, string> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
};

/** Top-level sampling keys a harness sends on Chat; Ollama takes them under `options`. */
const OPTION_KEYS = [
  "temperature",
  "top_p",
  "top_k",
  "min_p",
  "seed",
  "stop",
  "presence_penalty",
  "frequency_penalty",
  "repeat_penalty",
];

/** What the request needs to know about the model: its window, and how it takes `think`. */
export interface ModelFacts {
  numCtx?: number;
  think?: "level" | "boolean";
}

/** The facts `/api/show` gives about `model`, with the window chosen for it. */
export function factsOf(model: OllamaModel | undefined, configured?: number): ModelFacts {
  return { numCtx: chooseContextWindow(model, configured).tokens, think: thinkStyle(model) };
}

/** Builds the `/api/chat` request body for `request`. */
export function toWire(
  request: ModelRequest,
  settings: Pick<ProviderSettings, "compat">,
  facts: ModelFacts = {},
): Json {
  const { compat } = settings;
  const plan = planRequest(request, "chat", compat);
  const messages: Json[] = [];
  const system = joinedSystem(request.system);
  if (system) messages.push({ role: "system", content: system });
  let toolImages: string[] = [];
  for (const message of foldSystemMessages(request.messages, compat.systemMessages === true)) {
    if (message.role !== "tool_result" && toolImages.length > 0) {
      messages.push({ role: "user", content: "", images: toolImages });
      toolImages = [];
    }
    if (message.role === "user") {
      const role = message.systemRole && compat.systemMessages ? "system" : "user";
      messages.push(withImages({ role, content: joinedText(message.blocks) }, message.blocks));
    } else if (message.role === "assistant") {
      const wire = assistantMessage(message.blocks, compat);
      if (wire) messages.push(wire);
    } else {
      messages.push({
        role: "tool",
        content: textOf(message.blocks),
        tool_name: message.name,
        tool_call_id: message.callId,
      });
      toolImages.push(...imagesOf(message.blocks));
    }
  }
  if (toolImages.length > 0) messages.push({ role: "user", content: "", images: toolImages });
  const options: Json = {};
  if (facts.numCtx) options.num_ctx = facts.numCtx;
  // Ollama generates without end unless told (num_predict -1), so the model's cap (a quarter
  // of a local window) is the limit where the harness sets none.
  const limit = plan.maxOutputTokens ?? request.maxOutputCap;
  if (limit) options.num_predict = limit;
  const body: Json = { model: request.model, messages, stream: true };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  const think = thinkValue(request, plan, facts.think);
  if (think !== undefined) body.think = think;
  if (request.outputSchema) body.format = request.outputSchema.schema;
  finishBody(body, plan, {
    compat,
    sessionId: request.sessionId,
    thinkingOn: think !== undefined && think !== false,
    hasTools: request.tools.length > 0,
  });
  for (const key of OPTION_KEYS) {
    if (key in body) {
      options[key] = body[key];
      delete body[key];
    }
  }
  body.options = options;
  return body;
}

/**
 * `think`: false when the user or harness asks for no reasoning, the effort's level for models
 * that take levels, true for other thinking models, and nothing for models that cannot think
 * (Ollama refuses `think` there).
 */
function thinkValue(
  request: ModelRequest,
  plan: RequestPlan,
  style: ModelFacts["think"],
): boolean | string | undefined {
  if (!style) return undefined;
  const asked = request.reasoningEffort ?? plan.spec.effort;
  if (asked === "none" || plan.spec.reasoning === false) return false;
  return style === "level" ? THINK_LEVELS[plan.effort ?? "medium"] : true;
}

/** Text blocks joined by blank lines: Ollama's `content` is one string. */
function joinedText(blocks: Block[]): string {
  return blocks.flatMap((b) => b.type === "text" && b.text !== "" ? [b.text] : []).join("\n\n");
}

function imagesOf(blocks: Block[]): string[] {
  return blocks.flatMap((b) => b.type === "image" ? [b.base64] : []);
}

function withImages(message: Json, blocks: Block[]): Json {
  const images = imagesOf(blocks);
  return images.length > 0 ? { ...message, images } : message;
}

/**
 * An assistant message, or undefined when there is nothing to send. The thinking the harness
 * kept goes back in Ollama's `thinking` field (unless `compat.reasoningReplay` is "none"), tool
 * calls with their arguments as objects.
 */
function assistantMessage(blocks: Block[], compat: Compat): Json | undefined {
  const text = textOf(blocks);
  const calls = blocks.filter((b): b is ToolCallBlock => b.type === "tool_call");
  if (text === "" && calls.length === 0) return undefined;
  const wire: Json = { role: "assistant", content: text };
  const thinking = blocks.map((b) => b.type === "thinking" ? b.text : "").join("");
  if (thinking !== "" && compat.reasoningReplay !== "none") wire.thinking = thinking;
  if (calls.length > 0) {
    wire.tool_calls = calls.map((c, index) => ({
      id: c.id,
      function: { index, name: c.name, arguments: replayArgs(c) },
    }));
  }
  return wire;
}

/** What the reducer has seen of one streamed reply. */
export interface OllamaState {
  blocks: Block[];
  usage: Usage;
  /** `done_reason` of the final object; unset until `done: true` arrives. */
  doneReason?: string;
}

/** A fresh reducer state. */
export function initOllamaState(): OllamaState {
  return { blocks: [], usage: emptyUsage() };
}

/** Reduces one streamed `/api/chat` object into `state`; returns the events it produced. */
export function fromWire(chunk: unknown, state: OllamaState): StreamEvent[] {
  const c = rec(chunk);
  const message = rec(c.message);
  const events: StreamEvent[] = [];
  const thinking = str(message.thinking);
  if (thinking) {
    appendText(state.blocks, "thinking", thinking);
    events.push(deltaEvent("thinking", thinking));
  }
  const content = str(message.content);
  if (content) {
    appendText(state.blocks, "text", content);
    events.push(deltaEvent("text", content));
  }
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    events.push(...toolCall(rec(call), state));
  }
  if (c.done === true) {
    state.doneReason = str(c.done_reason) || "stop";
    state.usage = {
      ...emptyUsage(),
      inputTokens: num(c.prompt_eval_count),
      outputTokens: num(c.eval_count),
    };
  }
  return events;
}

/** Ollama sends each tool call whole, its arguments as an object. */
function toolCall(entry: Json, state: OllamaState): StreamEvent[] {
  const fn = rec(entry.function);
  const id = str(entry.id) || `call_${crypto.randomUUID().slice(0, 8)}`;
  const name = str(fn.name) ?? "";
  const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {});
  const call = newToolCall(id, name, args);
  state.blocks.push(call);
  return [
    { type: "tool_call_start", id, name },
    { type: "tool_call_delta", id, argsDelta: args },
  ];
}

/** The last event of a reply: `done`, or an error when the final `done` object never came. */
export function finishOllama(state: OllamaState, how: "complete" | "aborted"): StreamEvent {
  if (how === "aborted") return abortedEvent(state.blocks, state.usage);
  if (!state.doneReason) {
    const message = 'Stream ended before the model finished: no final "done" object was sent';
    return { type: "error", error: { message, retryable: true } };
  }
  return doneEvent(state.blocks, STOP_REASONS[state.doneReason] ?? "end_turn", state.usage);
}

/** The request to `${root}/api/chat`; a key, when one is configured, goes as a bearer token. */
function chatRequest(settings: ProviderSettings, body: Json, plan: RequestPlan): WireRequest {
  const auth: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  const headers = requestHeaders(settings, auth, plan.headers);
  headers.set("accept", "application/x-ndjson");
  return {
    url: endpointUrl(ollamaRoot(settings.baseUrl), {
      path: "/api/chat",
      query: settings.queryParams,
    }),
    headers,
    body,
  };
}

/**
 * A provider that speaks Ollama's `/api/chat`. Before a model's first request it asks
 * `/api/show` (once per process) for the model's window and capabilities; a model without tool
 * support is refused there, before any chat request, when the request has tools.
 */
export function createOllamaProvider(settings: ProviderSettings): Provider {
  const root = ollamaRoot(settings.baseUrl);
  return {
    settings,
    async *stream(request, signal) {
      const model = await showModel(root, request.model).catch(() => undefined);
      if (model && request.tools.length > 0 && !supportsTools(model)) {
        yield { type: "error", error: toolsRefusal(request.model) };
        return;
      }
      const body = toWire(request, settings, factsOf(model, settings.contextWindow));
      const plan = planRequest(request, "chat", settings.compat);
      const events = driveStream({
        settings,
        model: request.model,
        open: (abort) =>
          openNdjsonStream(chatRequest(settings, body, plan), abort, settings).catch((error) => {
            throw markPermanent(error);
          }),
        init: initOllamaState,
        step: fromWire,
        finish: finishOllama,
      }, signal);
      for await (const event of events) {
        yield event.type === "error" ? { type: "error", error: explain(event.error) } : event;
      }

      function explain(failure: ProviderFailure): ProviderFailure {
        return ollamaFailure(failure, { model: request.model, root });
      }
    },
  };
}
