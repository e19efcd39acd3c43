/**
 * Reads a request of any wire format into one view: system text, tool names and a flat history
 * of user text, assistant turns (tool calls and reasoning) and tool results. Malformed parts
 * become problems rather than exceptions, so every defect in a request is reported at once.
 */
import type { Wire } from "./plan.ts";
import { viewGemini } from "./request_view_gemini.ts";
import { checkTools, isObject } from "./tool_shapes.ts";

/** A tool call found in the history. */
export interface ViewCall {
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when they were not valid JSON (already a problem). */
  args: unknown;
  /** Responses `function_call.id`, when the client sent one. */
  itemId?: string;
  /** Gemini: the `thoughtSignature` on the call's part, when the client sent one. */
  sealed?: string;
}

/** Replayed reasoning: Messages thinking block or Responses reasoning item. */
export interface ViewThinking {
  text?: string;
  sealed?: string;
  itemId?: string;
}

/** One step of the conversation as the request presents it. */
export type HistoryEntry =
  | { kind: "user"; text: string }
  | { kind: "assistant"; calls: ViewCall[]; thinking: ViewThinking[] }
  | { kind: "tool_result"; callId: string; text: string };

/** A request reduced to what the invariants look at. */
export interface RequestView {
  model: unknown;
  system: string;
  toolNames: string[];
  history: HistoryEntry[];
  /** Responses `previous_response_id`: earlier output the history continues from. */
  previousResponseId?: string;
  problems: string[];
}

/** A view with only the model read: a body that is not an object is a problem of its own. */
export function emptyView(body: unknown): RequestView {
  const view: RequestView = {
    model: undefined,
    system: "",
    toolNames: [],
    history: [],
    problems: [],
  };
  if (isObject(body)) view.model = body.model;
  else view.problems.push("The request body must be a JSON object");
  return view;
}

/**
 * Builds the view of `body`, a parsed request of `wire`, sent with `headers`; `model` is the
 * model a Gemini request names in its path.
 */
export function viewRequest(
  wire: Wire,
  body: unknown,
  headers: Headers,
  model?: string,
): RequestView {
  const view = emptyView(body);
  if (!isObject(body)) return view;
  if (wire === "gemini") {
    view.model = model;
    viewGemini(body, headers, view);
    return view;
  }
  const tools = checkTools(wire, body.tools);
  view.toolNames = tools.names;
  view.problems.push(...tools.problems);
  if (wire === "chat") viewChat(body, view);
  if (wire === "responses") viewResponses(body, view);
  if (wire === "messages") viewMessages(body, headers, view);
  return view;
}

function viewChat(body: Record<string, unknown>, view: RequestView): void {
  if (!Array.isArray(body.messages)) {
    view.problems.push('"messages" must be an array');
    return;
  }
  eachObject(body.messages, "messages", view, (message, where) => {
    const role = message.role;
    if (role === "system" || role === "developer") view.system += textOf(message.content) + "\n";
    else if (role === "user") view.history.push({ kind: "user", text: textOf(message.content) });
    else if (role === "assistant") {
      const calls = asArray(message.tool_calls, `${where}.tool_calls`, view).flatMap((call, j) =>
        chatCall(call, `${where}.tool_calls[${j}]`, view) ?? []
      );
      view.history.push({ kind: "assistant", calls, thinking: [] });
    } else if (role !== "tool") {
      view.problems.push(`${where} has unknown role ${JSON.stringify(role)}`);
    } else if (typeof message.tool_call_id !== "string") {
      view.problems.push(`${where} has role "tool" but no string "tool_call_id"`);
    } else {
      const callId = message.tool_call_id;
      view.history.push({ kind: "tool_result", callId, text: textOf(message.content) });
    }
  });
}

function chatCall(call: unknown, where: string, view: RequestView): ViewCall | undefined {
  const fn = isObject(call) ? call.function : undefined;
  if (!isObject(call) || call.type !== "function" || typeof call.id !== "string" || !isObject(fn)) {
    view.problems.push(`${where} must be {id, type: "function", function: {name, arguments}}`);
    return undefined;
  }
  return namedCall(call.id, fn.name, parseArgs(fn.arguments, `${where}.function.arguments`, view));
}

function viewResponses(body: Record<string, unknown>, view: RequestView): void {
  if (typeof body.instructions === "string") view.system += body.instructions + "\n";
  if (typeof body.previous_response_id === "string") {
    view.previousResponseId = body.previous_response_id;
  }
  if (typeof body.input === "string") {
    view.history.push({ kind: "user", text: body.input });
    return;
  }
  if (!Array.isArray(body.input)) {
    view.problems.push('"input" must be a string or an array of items');
    return;
  }
  eachObject(body.input, "input", view, (item, where) => {
    const type = item.type ?? (item.role === undefined ? undefined : "message");
    if (type === "message") responsesMessage(item, where, view);
    else if (type === "reasoning") {
      const thinking = { itemId: stringOr(item.id), sealed: stringOr(item.encrypted_content) };
      assistantEntry(view).thinking.push(thinking);
    } else if (type === "additional_tools") {
      additionalTools(item, where, view);
    } else if (!RESPONSES_CALL_ITEMS.includes(String(type))) {
      view.problems.push(`${where} has item type ${JSON.stringify(type)}, unsupported here`);
    } else if (typeof item.call_id !== "string") {
      view.problems.push(`${where} is a ${type} without a string "call_id"`);
    } else if (String(type).endsWith("_output")) {
      view.history.push({ kind: "tool_result", callId: item.call_id, text: textOf(item.output) });
    } else {
      const args = type === "custom_tool_call"
        ? { input: item.input }
        : parseArgs(item.arguments, `${where}.arguments`, view);
      const call = namedCall(item.call_id, item.name, args);
      if (typeof item.id === "string") call.itemId = item.id;
      assistantEntry(view).calls.push(call);
    }
  });
}

/** Responses input items that carry calls and their results. */
const RESPONSES_CALL_ITEMS = [
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
];

/** Codex code mode's `additional_tools` item: its namespaces' tools count as the request's. */
function additionalTools(item: Record<string, unknown>, where: string, view: RequestView): void {
  if (item.role !== "developer" || !Array.isArray(item.tools)) {
    view.problems.push(`${where} (additional_tools) needs role "developer" and a "tools" list`);
    return;
  }
  for (const ns of item.tools as Record<string, unknown>[]) {
    const seen = checkTools("responses", ns?.tools);
    if (ns?.type !== "namespace" || typeof ns.name !== "string") {
      view.problems.push(`${where} holds a tool group that is not a named namespace`);
    }
    view.toolNames.push(...seen.names);
    view.problems.push(...seen.problems.map((p) => `${where} ${ns?.name}: ${p}`));
  }
}

function responsesMessage(item: Record<string, unknown>, where: string, view: RequestView): void {
  const text = textOf(item.content);
  if (item.role === "user") view.history.push({ kind: "user", text });
  else if (item.role === "system" || item.role === "developer") view.system += text + "\n";
  else if (item.role === "assistant") assistantEntry(view);
  else view.problems.push(`${where} has unknown role ${JSON.stringify(item.role)}`);
}

/** The open assistant entry: Responses output items in a row form one assistant turn. */
function assistantEntry(view: RequestView): Extract<HistoryEntry, { kind: "assistant" }> {
  const last = view.history.at(-1);
  if (last?.kind === "assistant") return last;
  const entry = { kind: "assistant" as const, calls: [], thinking: [] };
  view.history.push(entry);
  return entry;
}

function viewMessages(body: Record<string, unknown>, headers: Headers, view: RequestView): void {
  if (!headers.get("anthropic-version")) {
    view.problems.push('Header "anthropic-version" is missing');
  }
  const bearer = /^Bearer \S+/.test(headers.get("authorization") ?? "");
  if (!headers.get("x-api-key") && !bearer) {
    view.problems.push('Neither an "x-api-key" header nor bearer authorization was sent');
  }
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    view.problems.push(
      `"max_tokens" must be a positive integer, got ${JSON.stringify(body.max_tokens)}`,
    );
  }
  if (body.system !== undefined) view.system += textOf(body.system) + "\n";
  if (!Array.isArray(body.messages)) {
    view.problems.push('"messages" must be an array');
    return;
  }
  eachObject(body.messages, "messages", view, (message, where) => {
    const blocks = typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : asArray(message.content, `${where}.content`, view);
    if (message.role === "assistant") messagesAssistant(blocks, `${where}.content`, view);
    else if (message.role === "user") messagesUser(blocks, `${where}.content`, view);
    else view.problems.push(`${where} has role ${JSON.stringify(message.role)}`);
  });
}

function messagesAssistant(blocks: unknown[], where: string, view: RequestView): void {
  const entry: HistoryEntry = { kind: "assistant", calls: [], thinking: [] };
  eachObject(blocks, where, view, (block, at) => {
    if (block.type === "thinking") {
      entry.thinking.push({ text: stringOr(block.thinking), sealed: stringOr(block.signature) });
    } else if (block.type !== "tool_use") return;
    else if (typeof block.id !== "string" || !isObject(block.input)) {
      view.problems.push(`${at} is a tool_use without a string id and an input object`);
    } else entry.calls.push(namedCall(block.id, block.name, block.input));
  });
  view.history.push(entry);
}

/** Tool results become entries of their own; the rest of the message is one user entry. */
function messagesUser(blocks: unknown[], where: string, view: RequestView): void {
  let text = "";
  let sawOther = false;
  eachObject(blocks, where, view, (block, at) => {
    if (block.type !== "tool_result") {
      sawOther = true;
      text += block.type === "text" ? textOf([block]) : "";
      return;
    }
    if (sawOther) {
      view.problems.push(`${at} is a tool_result after other content; tool results come first`);
    }
    if (typeof block.tool_use_id !== "string") {
      view.problems.push(`${at} is a tool_result without a string "tool_use_id"`);
    } else {
      const callId = block.tool_use_id;
      view.history.push({ kind: "tool_result", callId, text: textOf(block.content) });
    }
  });
  if (sawOther) view.history.push({ kind: "user", text });
}

/** Calls `fn` on each object in `list`, reporting entries that are not objects. */
export function eachObject(
  list: unknown[],
  prefix: string,
  view: RequestView,
  fn: (item: Record<string, unknown>, where: string) => void,
): void {
  for (const [i, item] of list.entries()) {
    if (isObject(item)) fn(item, `${prefix}[${i}]`);
    else view.problems.push(`${prefix}[${i}] must be an object`);
  }
}

export function namedCall(id: string, name: unknown, args: unknown): ViewCall {
  return { id, name: typeof name === "string" ? name : String(name), args };
}

function parseArgs(raw: unknown, where: string, view: RequestView): unknown {
  if (typeof raw !== "string") {
    view.problems.push(`${where} must be a JSON string`);
    return undefined;
  }
  try {
    return JSON.parse(raw);
  } catch {
    view.problems.push(`${where} is not valid JSON: ${JSON.stringify(raw)}`);
    return undefined;
  }
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asArray(value: unknown, where: string, view: RequestView): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  view.problems.push(`${where} must be an array`);
  return [];
}

/** The text of a content field: a string, or the `text` of each part in an array. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => isObject(part) && typeof part.text === "string" ? part.text : "")
    .join("");
}
