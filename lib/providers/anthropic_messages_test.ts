import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import { collect, serveReplies, simpleRequest, sseEvents, testSettings } from "./_testing.ts";
import { transportTests } from "./_transport_tests.ts";
import {
  createMessagesProvider,
  DEFAULT_MAX_TOKENS,
  finishMessages,
  fromWire,
  initMessagesState,
  messagesUrl,
  toWire,
} from "./anthropic_messages.ts";

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "go" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", text: "plan", signature: "SIG" },
      { type: "thinking", text: "", encrypted: "REDACTED" },
      { type: "thinking", text: "unsigned, from another wire" },
      { type: "text", text: "Calling" },
      { type: "tool_call", id: "toolu_1", name: "ls", args: { path: "." } },
      { type: "tool_call", id: "call:2", name: "cat", args: undefined, rawArgs: "{" },
    ],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "toolu_1",
    name: "ls",
    blocks: [{ type: "text", text: "a" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "call:2",
    name: "cat",
    blocks: [{ type: "text", text: "e" }],
    isError: true,
  },
  { role: "user", blocks: [{ type: "text", text: "and then?" }] },
];

Deno.test("toWire() groups consecutive tool results into one user message", () => {
  const body = toWire(simpleRequest({ messages: history }), { compat: {} });
  assert.deepEqual(body.system, [{ type: "text", text: "Be brief" }]);
  assert.equal(body.max_tokens, DEFAULT_MAX_TOKENS);
  assert.deepEqual(body.messages, [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan", signature: "SIG" },
        { type: "redacted_thinking", data: "REDACTED" },
        { type: "text", text: "Calling" },
        { type: "tool_use", id: "toolu_1", name: "ls", input: { path: "." } },
        { type: "tool_use", id: "call_2", name: "cat", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "a" },
        { type: "tool_result", tool_use_id: "call_2", content: "e", is_error: true },
        { type: "text", text: "and then?" },
      ],
    },
  ]);
});

Deno.test("toWire() declares tools and asks for thinking per compat", () => {
  const tools = [{ name: "ls", description: "List", parameters: { type: "object" } }];
  const budget = toWire(
    simpleRequest({ tools, reasoningEffort: "medium", maxOutputTokens: 4000 }),
    {
      compat: {},
    },
  );
  assert.deepEqual(budget.tools, [{
    name: "ls",
    description: "List",
    input_schema: { type: "object" },
  }]);
  assert.deepEqual(budget.thinking, { type: "enabled", budget_tokens: 3999 });
  const adaptive = toWire(simpleRequest({ reasoningEffort: "minimal" }), {
    compat: { thinking: "adaptive" },
  });
  assert.deepEqual(adaptive.thinking, { type: "adaptive" });
  assert.deepEqual(adaptive.output_config, { effort: "low" });
  const tooSmall = toWire(simpleRequest({ reasoningEffort: "high", maxOutputTokens: 500 }), {
    compat: {},
  });
  assert.equal(tooSmall.thinking, undefined);
});

Deno.test("messagesUrl() appends /messages after /v1, else /v1/messages", () => {
  assert.equal(
    messagesUrl("https://api.anthropic.com/v1"),
    "https://api.anthropic.com/v1/messages",
  );
  assert.equal(messagesUrl("http://127.0.0.1:9/v1/"), "http://127.0.0.1:9/v1/messages");
  assert.equal(
    messagesUrl("https://api.deepseek.com/anthropic", { beta: "true" }),
    "https://api.deepseek.com/anthropic/v1/messages?beta=true",
  );
});

const events = [
  {
    type: "message_start",
    message: { usage: { input_tokens: 5, cache_read_input_tokens: 10, output_tokens: 1 } },
  },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "SIG" } },
  { type: "content_block_stop", index: 0 },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "redacted_thinking", data: "R" },
  },
  { type: "content_block_stop", index: 1 },
  { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Hi" } },
  { type: "content_block_stop", index: 2 },
  {
    type: "content_block_start",
    index: 3,
    content_block: { type: "tool_use", id: "t1", name: "ls", input: {} },
  },
  {
    type: "content_block_start",
    index: 4,
    content_block: { type: "tool_use", id: "t2", name: "cat", input: {} },
  },
  {
    type: "content_block_delta",
    index: 3,
    delta: { type: "input_json_delta", partial_json: '{"x"' },
  },
  {
    type: "content_block_delta",
    index: 4,
    delta: { type: "input_json_delta", partial_json: "{}" },
  },
  {
    type: "content_block_delta",
    index: 3,
    delta: { type: "input_json_delta", partial_json: ":1}" },
  },
  { type: "content_block_stop", index: 3 },
  { type: "content_block_stop", index: 4 },
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } },
  { type: "message_stop" },
];

Deno.test("fromWire() assembles signed thinking, text and parallel tool uses", () => {
  const state = initMessagesState();
  const out = events.flatMap((e) => fromWire(e, state));
  assert.deepEqual(out.filter((e) => e.type === "tool_call_delta").map((e) => e.type), [
    "tool_call_delta",
    "tool_call_delta",
    "tool_call_delta",
  ]);
  assert.deepEqual(finishMessages(state, "complete"), {
    type: "done",
    blocks: [
      { type: "thinking", text: "hmm", signature: "SIG" },
      { type: "thinking", text: "", encrypted: "R" },
      { type: "text", text: "Hi" },
      { type: "tool_call", id: "t1", name: "ls", args: { x: 1 } },
      { type: "tool_call", id: "t2", name: "cat", args: {} },
    ],
    stop: "tool_calls",
    usage: { inputTokens: 15, outputTokens: 30, cachedInputTokens: 10, reasoningTokens: 0 },
  });
});

Deno.test("fromWire() keeps rawArgs for invalid tool input JSON", () => {
  const state = initMessagesState();
  fromWire(events[10], state);
  fromWire({
    type: "content_block_delta",
    index: 3,
    delta: { type: "input_json_delta", partial_json: "{x" },
  }, state);
  fromWire({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: {} }, state);
  const done = finishMessages(state, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual(done.blocks, [{
    type: "tool_call",
    id: "t1",
    name: "ls",
    args: undefined,
    rawArgs: "{x",
  }]);
});

Deno.test("finishMessages() maps max_tokens and reports a missing stop reason", () => {
  const state = initMessagesState();
  fromWire({ type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: {} }, state);
  assert.equal((finishMessages(state, "complete") as { stop: string }).stop, "max_tokens");
  const early = finishMessages(initMessagesState(), "complete");
  assert.ok(early.type === "error");
  assert.equal(early.error.retryable, true);
});

Deno.test("finishMessages() maps stop_reason refusal to refusal", () => {
  const state = initMessagesState();
  fromWire({ type: "message_delta", delta: { stop_reason: "refusal" }, usage: {} }, state);
  assert.equal((finishMessages(state, "complete") as { stop: string }).stop, "refusal");
});

Deno.test("createMessagesProvider() posts to base_url/messages with Anthropic headers", async () => {
  await using server = serveReplies([{ body: sseEvents(events) }]);
  const provider = createMessagesProvider(testSettings(server.baseUrl, "messages"));
  const out = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  const done = out.at(-1);
  assert.ok(done?.type === "done");
  assert.equal(done.blocks.length, 5);
  const [request] = server.requests;
  assert.equal(request.path, "/v1/messages");
  assert.equal(request.headers.get("x-api-key"), "sk-test");
  assert.equal(request.headers.get("authorization"), null);
  assert.equal(request.headers.get("anthropic-version"), "2023-06-01");
  assert.equal(request.body.max_tokens, DEFAULT_MAX_TOKENS);
});

Deno.test("createMessagesProvider() lets configured headers win and sends no key when unset", async () => {
  await using server = serveReplies([{ body: sseEvents(events) }]);
  const provider = createMessagesProvider(testSettings(server.baseUrl, "messages", {
    apiKey: undefined,
    headers: { "Anthropic-Version": "2099-01-01", "anthropic-beta": "x" },
  }));
  const out = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  assert.equal(out.at(-1)?.type, "done");
  const [request] = server.requests;
  assert.equal(request.headers.get("x-api-key"), null);
  assert.equal(request.headers.get("anthropic-version"), "2099-01-01");
  assert.equal(request.headers.get("anthropic-beta"), "x");
});

const ok = [
  { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } },
];

transportTests({
  wire: "messages",
  create: createMessagesProvider,
  okBody: sseEvents([
    ...ok,
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
    { type: "message_stop" },
  ]),
  partialBody: sseEvents(ok),
});
