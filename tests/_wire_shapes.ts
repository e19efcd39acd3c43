/**
 * Test helper: a request body read the way its wire API shapes it, independently of the fake
 * provider's own reading: the tools it declares, the tool calls it replays and the tool results
 * it carries. A body that lacks its wire's required fields fails an assertion.
 */
import assert from "node:assert/strict";
import type { WireApi } from "../lib/providers/types.ts";

/** A wire API, or Ollama's native `/api/chat`. */
export type Route = WireApi | "ollama";

/** What a request body holds of the tool-call round trip. */
export interface RoundTrip {
  tools: string[];
  calls: Array<{ id: string; name: string }>;
  results: Array<{ id: string; text: string }>;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => Array.isArray(value) ? value as Json[] : [];
const obj = (value: unknown): Json => (value && typeof value === "object" ? value : {}) as Json;

/** The text of a content value: a string, or parts/blocks with `text`. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content).map((part) => typeof part.text === "string" ? part.text : "").join("");
}

/** Reads `body` as `route` shapes it; see the module comment. */
export function toolRoundTrip(route: Route, body: unknown): RoundTrip {
  const b = obj(body);
  // Gemini streams by its endpoint (`:streamGenerateContent`), not by a body key.
  if (route !== "gemini") assert.equal(b.stream, true, "streamed");
  switch (route) {
    case "chat":
    case "ollama":
      return chatLike(route, b);
    case "responses":
      return responses(b);
    case "messages":
      return messages(b);
    case "gemini":
      return gemini(b);
  }
}

/** Chat Completions and Ollama's `/api/chat`: `messages[]` with `tool_calls` and `role: "tool"`. */
function chatLike(route: "chat" | "ollama", b: Json): RoundTrip {
  assert.ok(Array.isArray(b.messages), "messages[]");
  if (route === "ollama") assert.equal(typeof obj(b.options).num_ctx, "number", "options.num_ctx");
  const tools = list(b.tools).filter((t) => t.type === "function").map((t) => obj(t.function).name);
  const calls = list(b.messages).filter((m) => m.role === "assistant").flatMap((m) =>
    list(m.tool_calls).map((c) => {
      const fn = obj(c.function);
      // Chat sends arguments as a JSON string, Ollama as an object.
      assert.equal(typeof fn.arguments, route === "chat" ? "string" : "object");
      return { id: String(c.id), name: String(fn.name) };
    })
  );
  const results = list(b.messages).filter((m) => m.role === "tool").map((m) => ({
    id: String(m.tool_call_id),
    text: textOf(m.content),
  }));
  return { tools: tools.map(String), calls, results };
}

/** Responses: `input[]` items `function_call` and `function_call_output`; tools named on top. */
function responses(b: Json): RoundTrip {
  assert.ok(Array.isArray(b.input), "input[]");
  const input = list(b.input);
  return {
    tools: list(b.tools).filter((t) => t.type === "function").map((t) => String(t.name)),
    calls: input.filter((i) => i.type === "function_call").map((i) => ({
      id: String(i.call_id),
      name: String(i.name),
    })),
    results: input.filter((i) => i.type === "function_call_output").map((i) => ({
      id: String(i.call_id),
      text: textOf(i.output),
    })),
  };
}

/** Messages: `tool_use` blocks in assistant turns, `tool_result` blocks in user turns. */
function messages(b: Json): RoundTrip {
  assert.equal(typeof b.max_tokens, "number", "max_tokens");
  assert.ok(Array.isArray(b.messages), "messages[]");
  const blocks = (role: string, type: string) =>
    list(b.messages).filter((m) => m.role === role).flatMap((m) =>
      list(m.content).filter((c) => c.type === type)
    );
  return {
    tools: list(b.tools).filter((t) => t.input_schema).map((t) => String(t.name)),
    calls: blocks("assistant", "tool_use").map((c) => ({ id: String(c.id), name: String(c.name) })),
    results: blocks("user", "tool_result").map((c) => ({
      id: String(c.tool_use_id),
      text: textOf(c.content),
    })),
  };
}

/** Gemini: `functionCall` parts in model turns, `functionResponse` parts in user turns. */
function gemini(b: Json): RoundTrip {
  assert.ok(Array.isArray(b.contents), "contents[]");
  const parts = (role: string, key: string) =>
    list(b.contents).filter((c) => c.role === role).flatMap((c) =>
      list(c.parts).map((p) => obj(p[key])).filter((p) => Object.keys(p).length > 0)
    );
  return {
    tools: list(b.tools).flatMap((t) => list(t.functionDeclarations)).map((d) => String(d.name)),
    calls: parts("model", "functionCall").map((c) => ({ id: String(c.id), name: String(c.name) })),
    results: parts("user", "functionResponse").map((r) => ({
      id: String(r.id),
      text: String(obj(r.response).output ?? obj(r.response).error ?? ""),
    })),
  };
}
