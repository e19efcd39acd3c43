import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import type { RequestSpecs } from "../model/request_settings.ts";
import type { StreamEvent } from "../model/stream.ts";
import { simpleRequest } from "./_testing.ts";
import { finishOllama, fromWire, initOllamaState, toWire } from "./ollama_chat.ts";

const toolTurn: Message[] = [
  {
    role: "user",
    blocks: [
      { type: "text", text: "<env>cwd</env>", context: true },
      { type: "text", text: "look at this" },
      { type: "image", mime: "image/png", base64: "iVBORw0=" },
    ],
  },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", text: "two calls" },
      { type: "text", text: "Running both" },
      { type: "tool_call", id: "c1", name: "ls", args: { path: "." } },
      { type: "tool_call", id: "c2", name: "cat", args: undefined, rawArgs: "{bad" },
    ],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "c1",
    name: "ls",
    blocks: [{ type: "text", text: "a" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "c2",
    name: "cat",
    blocks: [{ type: "text", text: "shot" }, { type: "image", mime: "image/png", base64: "AAAA" }],
    isError: true,
  },
];

Deno.test("toWire() sends Ollama's message shapes: joined text, images, thinking, tool calls and results", () => {
  const request = simpleRequest({
    system: [{ text: "Be brief", slot: "system" }, { text: "Use tools", slot: "developer" }],
    messages: toolTurn,
  });
  const body = toWire(request, { compat: {} });
  assert.deepEqual(body.messages, [
    { role: "system", content: "Be brief\n\nUse tools" },
    { role: "user", content: "<env>cwd</env>\n\nlook at this", images: ["iVBORw0="] },
    {
      role: "assistant",
      content: "Running both",
      thinking: "two calls",
      tool_calls: [
        { id: "c1", function: { index: 0, name: "ls", arguments: { path: "." } } },
        { id: "c2", function: { index: 1, name: "cat", arguments: {} } },
      ],
    },
    { role: "tool", content: "a", tool_name: "ls", tool_call_id: "c1" },
    { role: "tool", content: "shot", tool_name: "cat", tool_call_id: "c2" },
    { role: "user", content: "", images: ["AAAA"] },
  ]);
  assert.equal(body.stream, true);
  assert.deepEqual(body.options, {});
  assert.equal("think" in body, false, "no think field for a model without thinking");
});

Deno.test("toWire() puts the window and the harness's output limit in options, sampling keys too", () => {
  const settings: RequestSpecs = {
    chat: {
      base: { maxOutputTokens: 32000, body: { temperature: 0.7, top_p: 0.9, extra: 1 } },
      rules: [],
    },
  };
  const body = toWire(simpleRequest({ settings }), { compat: {} }, { numCtx: 65_536 });
  assert.deepEqual(body.options, {
    num_ctx: 65_536,
    num_predict: 32000,
    temperature: 0.7,
    top_p: 0.9,
  });
  assert.equal(body.extra, 1);
  assert.equal("temperature" in body, false);
  const user = toWire(simpleRequest({ settings, maxOutputTokens: 900 }), { compat: {} });
  assert.equal((user.options as Record<string, unknown>).num_predict, 900);
});

Deno.test("toWire() sets think from the effort: a level, true, or false for none", () => {
  const think = (facts: "level" | "boolean", overrides = {}) =>
    toWire(simpleRequest(overrides), { compat: {} }, { think: facts }).think;
  assert.equal(think("boolean"), true);
  assert.equal(think("level"), "medium");
  assert.equal(think("level", { reasoningEffort: "xhigh" }), "high");
  assert.equal(think("level", { reasoningEffort: "minimal" }), "low");
  assert.equal(think("boolean", { reasoningEffort: "none" }), false);
  const noReasoning: RequestSpecs = { chat: { base: { reasoning: false }, rules: [] } };
  assert.equal(think("boolean", { settings: noReasoning }), false);
  const harnessNone: RequestSpecs = { chat: { base: { effort: "none" }, rules: [] } };
  assert.equal(think("level", { settings: harnessNone }), false);
});

Deno.test("toWire() honours compat: no replayed thinking for none, system messages where taken", () => {
  const messages: Message[] = [
    { role: "user", blocks: [{ type: "text", text: "ctx" }], systemRole: true },
    ...toolTurn.slice(1, 3),
  ];
  const plain = toWire(simpleRequest({ messages }), { compat: { reasoningReplay: "none" } });
  const wire = plain.messages as Record<string, unknown>[];
  assert.equal(wire[1].role, "user");
  assert.equal("thinking" in wire[2], false);
  const system = toWire(simpleRequest({ messages }), { compat: { systemMessages: true } });
  assert.equal((system.messages as Record<string, unknown>[])[1].role, "system");
});

Deno.test("toWire() sends tools as functions and an output schema as format", () => {
  const schema = { type: "object", properties: { ok: { type: "boolean" } } };
  const body = toWire(
    simpleRequest({
      tools: [{ name: "ls", description: "list", parameters: { type: "object" } }],
      outputSchema: { name: "answer", schema, strict: true },
    }),
    { compat: {} },
  );
  assert.deepEqual(body.tools, [
    {
      type: "function",
      function: { name: "ls", description: "list", parameters: { type: "object" } },
    },
  ]);
  assert.deepEqual(body.format, schema);
});

Deno.test("fromWire() reads thinking, text, whole tool calls and the final counts", () => {
  const state = initOllamaState();
  const events: StreamEvent[] = [];
  const lines = [
    { message: { role: "assistant", content: "", thinking: "hmm " }, done: false },
    { message: { role: "assistant", content: "", thinking: "ok" }, done: false },
    { message: { role: "assistant", content: "Listing" }, done: false },
    {
      message: {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_a", function: { index: 0, name: "ls", arguments: { path: "." } } },
          { function: { index: 1, name: "pwd", arguments: {} } },
        ],
      },
      done: false,
    },
    {
      message: { role: "assistant", content: "" },
      done: true,
      done_reason: "stop",
      prompt_eval_count: 120,
      eval_count: 30,
    },
  ];
  for (const line of lines) events.push(...fromWire(line, state));
  assert.deepEqual(events.slice(0, 3), [
    { type: "thinking_delta", text: "hmm " },
    { type: "thinking_delta", text: "ok" },
    { type: "text_delta", text: "Listing" },
  ]);
  assert.deepEqual(events[3], { type: "tool_call_start", id: "call_a", name: "ls" });
  assert.deepEqual(events[4], { type: "tool_call_delta", id: "call_a", argsDelta: '{"path":"."}' });
  const done = finishOllama(state, "complete");
  assert.ok(done.type === "done");
  assert.equal(done.stop, "tool_calls");
  assert.deepEqual(done.usage, { ...emptyUsage(), inputTokens: 120, outputTokens: 30 });
  assert.deepEqual(done.blocks.slice(0, 2), [
    { type: "thinking", text: "hmm ok" },
    { type: "text", text: "Listing" },
  ]);
  const calls = done.blocks.filter((b) => b.type === "tool_call");
  assert.deepEqual(calls[0], { type: "tool_call", id: "call_a", name: "ls", args: { path: "." } });
  assert.ok(calls[1].type === "tool_call" && /^call_/.test(calls[1].id) && calls[1].name === "pwd");
});

Deno.test("finishOllama() wants the final done object and maps length to max_tokens", () => {
  const cut = initOllamaState();
  fromWire({ message: { content: "partial" }, done: false }, cut);
  const early = finishOllama(cut, "complete");
  assert.ok(early.type === "error");
  assert.match(early.error.message, /no final "done" object/);
  assert.equal(early.error.retryable, true);
  const long = initOllamaState();
  fromWire({ message: { content: "x" }, done: true, done_reason: "length" }, long);
  const done = finishOllama(long, "complete");
  assert.ok(done.type === "done");
  assert.equal(done.stop, "max_tokens");
  const aborted = finishOllama(cut, "aborted");
  assert.ok(aborted.type === "done" && aborted.stop === "aborted");
  assert.deepEqual(aborted.blocks, [{ type: "text", text: "partial" }]);
});
