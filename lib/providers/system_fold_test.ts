import assert from "node:assert/strict";
import type { Block, Message } from "../model/message.ts";
import { builtinProvider } from "./builtin.ts";
import { foldSystemMessages } from "./_fold_system.ts";
import { fromWire, initChatState, toWire as chatBody } from "./openai_chat.ts";
import { toWire as responsesBody } from "./openai_responses.ts";
import { simpleRequest } from "./_testing.ts";

type Json = Record<string, unknown>;

const text = (t: string, extra: Partial<{ context: boolean; cache: boolean }> = {}): Block => ({
  type: "text",
  text: t,
  ...extra,
});

/** A first prompt as the harness builds it: its reminders, the prompt, then a system message. */
const OPENING: Message[] = [
  {
    role: "user",
    blocks: [text("<system-reminder>\ngit\n</system-reminder>", { context: true }), text("fix it")],
  },
  {
    role: "user",
    systemRole: true,
    blocks: [text("env", { context: true }), text("date", { context: true, cache: true })],
  },
];

Deno.test("folded system text goes before the user's words as <system-reminder> parts", () => {
  const [only, ...rest] = foldSystemMessages(OPENING, false);
  assert.equal(rest.length, 0);
  assert.deepEqual(only.blocks.map((b) => (b as { text: string }).text), [
    "<system-reminder>\ngit\n</system-reminder>",
    "<system-reminder>\nenv\n</system-reminder>",
    "<system-reminder>\ndate\n</system-reminder>",
    "fix it",
  ]);
  assert.equal((only.blocks[2] as { cache?: boolean }).cache, true, "its cache breakpoint stays");
  assert.equal(
    foldSystemMessages(OPENING, true),
    OPENING,
    "an endpoint that takes them keeps them",
  );
});

Deno.test("a folded reminder is wrapped once, and one after a tool result is its own message", () => {
  const history: Message[] = [
    { role: "tool_result", callId: "c1", name: "Read", blocks: [text("x")], isError: false },
    {
      role: "user",
      systemRole: true,
      blocks: [text("<system-reminder>\nplan mode\n</system-reminder>")],
    },
  ];
  const out = foldSystemMessages(history, false);
  assert.deepEqual(out[1], {
    role: "user",
    blocks: [text("<system-reminder>\nplan mode\n</system-reminder>")],
  });
});

Deno.test("Chat without system messages: the prompt ends the user message", () => {
  const body = chatBody(simpleRequest({ messages: OPENING }), { compat: {} });
  const user = (body.messages as Json[])[1];
  assert.match(String(user.content), /<\/system-reminder>\n\nfix it$/);
});

Deno.test("Responses keeps developer messages unless the endpoint takes none (OpenRouter)", () => {
  const native = responsesBody(simpleRequest({ messages: OPENING }), { compat: {} });
  assert.deepEqual((native.input as Json[]).map((i) => i.role), ["user", "developer"]);
  const compat = builtinProvider("openrouter")!.compat;
  const folded = responsesBody(simpleRequest({ messages: OPENING }), { compat });
  const input = folded.input as Array<{ role: string; content: Json[] }>;
  assert.deepEqual(input.map((i) => i.role), ["user"]);
  assert.equal(input[0].content.at(-1)!.text, "fix it");
});

Deno.test("OpenRouter Chat: reasoning in its own object, cache_control where the harness caches", () => {
  const compat = builtinProvider("openrouter")!.compat;
  const settings = {
    chat: { base: { effort: "medium" as const, cache: ["last_message" as const] }, rules: [] },
  };
  const system = [
    { text: "identity", slot: "system" as const, cache: true },
    { text: "rules", slot: "system" as const },
  ];
  const body = chatBody(simpleRequest({ messages: OPENING, settings, system }), { compat });
  assert.deepEqual(body.reasoning, { effort: "medium" });
  assert.equal(body.reasoning_effort, undefined);
  const [sys, user] = body.messages as Array<{ content: Json[] }>;
  assert.deepEqual(sys.content, [
    { type: "text", text: "identity", cache_control: { type: "ephemeral" } },
    { type: "text", text: "rules" },
  ]);
  const marked = user.content.filter((p) => p.cache_control).map((p) => p.text);
  assert.deepEqual(marked, ["<system-reminder>\ndate\n</system-reminder>", "fix it"]);
  const plain = chatBody(simpleRequest({ messages: OPENING, settings, system }), { compat: {} });
  assert.equal(plain.reasoning_effort, "medium");
  assert.equal(JSON.stringify(plain).includes("cache_control"), false);
});

Deno.test("OpenRouter Chat: streamed reasoning_details keep their signature and go back whole", () => {
  const compat = builtinProvider("openrouter")!.compat;
  const state = initChatState(compat);
  const detail = { type: "reasoning.text", format: "anthropic-claude-v1", index: 0 };
  for (const piece of ["Look ", "first."]) {
    const delta = { reasoning: piece, reasoning_details: [{ ...detail, text: piece }] };
    fromWire({ choices: [{ delta }] }, state);
  }
  fromWire(
    { choices: [{ delta: { reasoning_details: [{ ...detail, signature: "sig" }] } }] },
    state,
  );
  fromWire({
    choices: [{ delta: { reasoning_details: [{ type: "reasoning.encrypted", data: "enc" }] } }],
  }, state);
  assert.deepEqual(state.blocks, [
    { type: "thinking", text: "Look first.", signature: "sig" },
    { type: "thinking", text: "", encrypted: "enc" },
  ]);
  const reply: Message = {
    role: "assistant",
    blocks: [...state.blocks, { type: "tool_call", id: "c1", name: "Read", args: {} }],
    stop: "tool_calls",
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
  };
  const body = chatBody(simpleRequest({ messages: [OPENING[0], reply] }), { compat });
  const assistant = (body.messages as Json[]).find((m) => m.role === "assistant")!;
  assert.equal(assistant.reasoning_content, undefined);
  assert.deepEqual(assistant.reasoning_details, [
    { type: "reasoning.text", text: "Look first.", index: 0, signature: "sig" },
    { type: "reasoning.encrypted", data: "enc", index: 1 },
  ]);
});
