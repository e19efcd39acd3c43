/**
 * Reads an Ollama `/api/chat` request into the fake provider's request view, so the same
 * invariants (every call answered once, ids unchanged) and `expect` checks apply to it.
 */
import {
  emptyView,
  type HistoryEntry,
  type RequestView,
  type ViewCall,
} from "../fake_provider/request_view.ts";
import { isObject } from "../fake_provider/tool_shapes.ts";

/** The view of a parsed `/api/chat` body; shape problems go to `problems`. */
export function viewOllamaChat(body: unknown): RequestView {
  const view = emptyView(body);
  if (!isObject(body)) return view;
  if (body.stream !== true) view.problems.push('"stream" must be true');
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const fn = isObject(tool) ? tool.function : undefined;
    if (
      !isObject(tool) || tool.type !== "function" || !isObject(fn) || typeof fn.name !== "string"
    ) {
      view.problems.push(`tools[${i}] must be {type: "function", function: {name, parameters}}`);
    } else view.toolNames.push(fn.name);
  }
  if (!Array.isArray(body.messages)) {
    view.problems.push('"messages" must be an array');
    return view;
  }
  body.messages.forEach((message, i) => {
    const entry = isObject(message) ? historyEntry(message, `messages[${i}]`, view) : undefined;
    if (!isObject(message)) view.problems.push(`messages[${i}] must be an object`);
    if (entry) view.history.push(entry);
  });
  return view;
}

function historyEntry(
  message: Record<string, unknown>,
  where: string,
  view: RequestView,
): HistoryEntry | undefined {
  if (typeof message.content !== "string") {
    view.problems.push(`${where}.content must be a string`);
  }
  const text = typeof message.content === "string" ? message.content : "";
  if (message.images !== undefined && !isBase64List(message.images)) {
    view.problems.push(`${where}.images must be a list of base64 strings`);
  }
  switch (message.role) {
    case "system":
      view.system += text + "\n";
      return undefined;
    case "user":
      return { kind: "user", text };
    case "assistant": {
      if (message.thinking !== undefined && typeof message.thinking !== "string") {
        view.problems.push(`${where}.thinking must be a string`);
      }
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      const thinking = typeof message.thinking === "string" ? [{ text: message.thinking }] : [];
      return {
        kind: "assistant",
        calls: calls.flatMap((call, j) => ollamaCall(call, `${where}.tool_calls[${j}]`, view)),
        thinking,
      };
    }
    case "tool":
      if (typeof message.tool_call_id !== "string" || typeof message.tool_name !== "string") {
        view.problems.push(`${where} has role "tool" but no string tool_call_id and tool_name`);
        return undefined;
      }
      return { kind: "tool_result", callId: message.tool_call_id, text };
    default:
      view.problems.push(`${where} has unknown role ${JSON.stringify(message.role)}`);
      return undefined;
  }
}

/** A replayed call: `{id, function: {name, arguments: {...}}}`, arguments as an object. */
function ollamaCall(call: unknown, where: string, view: RequestView): ViewCall[] {
  const fn = isObject(call) ? call.function : undefined;
  if (
    !isObject(call) || typeof call.id !== "string" || !isObject(fn) || typeof fn.name !== "string"
  ) {
    view.problems.push(`${where} must be {id, function: {name, arguments}}`);
    return [];
  }
  if (!isObject(fn.arguments)) {
    view.problems.push(`${where}.function.arguments must be an object, as Ollama sends it`);
  }
  return [{ id: call.id, name: fn.name, args: fn.arguments }];
}

function isBase64List(value: unknown): boolean {
  return Array.isArray(value) &&
    value.every((v) => typeof v === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(v));
}
