import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import type { StreamEvent } from "../model/stream.ts";
import { collect, serveReplies, simpleRequest, sseData, testSettings } from "./_testing.ts";
import { transportTests } from "./_transport_tests.ts";
import type { Compat } from "./types.ts";
import { createChatProvider, finishChat, fromWire, initChatState, toWire } from "./openai_chat.ts";

const toolTurn: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "list and read" }] },
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
    blocks: [{ type: "text", text: "bad" }],
    isError: true,
  },
];

Deno.test("toWire() puts the system message first and answers each tool call", () => {
  const body = toWire(simpleRequest({ messages: toolTurn }), { compat: {} });
  assert.deepEqual(body.messages, [
    { role: "system", content: "Be brief" },
    { role: "user", content: "list and read" },
    {
      role: "assistant",
      content: "Running both",
      reasoning_content: "two calls",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } },
        { id: "c2", type: "function", function: { name: "cat", arguments: "{}" } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "a" },
    { role: "tool", tool_call_id: "c2", content: "bad" },
  ]);
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.equal(body.tools, undefined);
});

Deno.test("toWire() replays thinking and empty tool-call reasoning with replay tool_calls", () => {
  const compat: Compat = { reasoningReplay: "tool_calls", streamUsage: true };
  const messages: Message[] = [
    ...toolTurn,
    {
      role: "assistant",
      blocks: [{ type: "tool_call", id: "c3", name: "ls", args: {} }],
      stop: "tool_calls",
      usage: emptyUsage(),
    },
  ];
  const body = toWire(simpleRequest({ messages, maxOutputTokens: 99 }), { compat });
  const assistants = (body.messages as Record<string, unknown>[])
    .filter((m) => m.role === "assistant");
  assert.equal(assistants[0].reasoning_content, "two calls");
  assert.equal(assistants[1].reasoning_content, "", "tool-call messages always carry the field");
  assert.equal(assistants[1].content, null);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.equal(body.max_tokens, 99);
});

/** A turn whose assistant messages have no thinking: one with a tool call, one text-only. */
const unthoughtTurn: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "go" }] },
  {
    role: "assistant",
    blocks: [{ type: "tool_call", id: "c1", name: "ls", args: {} }],
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
    role: "assistant",
    blocks: [{ type: "thinking", text: "done" }, { type: "text", text: "Found a" }],
    stop: "end_turn",
    usage: emptyUsage(),
  },
  { role: "user", blocks: [{ type: "text", text: "thanks" }] },
  {
    role: "assistant",
    blocks: [{ type: "text", text: "Welcome" }],
    stop: "end_turn",
    usage: emptyUsage(),
  },
];

function replayedReasoning(compat: Compat, field = "reasoning_content"): (string | undefined)[] {
  const body = toWire(simpleRequest({ messages: unthoughtTurn }), { compat });
  return (body.messages as Record<string, unknown>[])
    .filter((m) => m.role === "assistant")
    .map((m) => field in m ? String(m[field]) : undefined);
}

Deno.test("toWire() sends the thinking the history holds under reasoning_content by default", () => {
  assert.deepEqual(replayedReasoning({}), [undefined, "done", undefined]);
});

Deno.test("toWire() sends reasoning under the compat field name", () => {
  assert.deepEqual(replayedReasoning({ reasoningField: "thoughts" }, "thoughts"), [
    undefined,
    "done",
    undefined,
  ]);
  assert.deepEqual(replayedReasoning({ reasoningField: "thoughts" }), [
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("toWire() adds an empty reasoning field on tool-call messages with replay tool_calls", () => {
  assert.deepEqual(replayedReasoning({ reasoningReplay: "tool_calls" }), ["", "done", undefined]);
});

Deno.test("toWire() sends the reasoning field on every assistant message when replay is always", () => {
  assert.deepEqual(replayedReasoning({ reasoningReplay: "always" }), ["", "done", ""]);
});

Deno.test("toWire() sends no reasoning when compat switches replay off", () => {
  assert.deepEqual(replayedReasoning({ reasoningReplay: "none" }), [
    undefined,
    undefined,
    undefined,
  ]);
  const body = toWire(simpleRequest({ messages: toolTurn }), {
    compat: { reasoningReplay: "none" },
  });
  const assistant = (body.messages as Record<string, unknown>[])[2];
  assert.equal("reasoning_content" in assistant, false);
});

Deno.test("toWire() declares tools and sends images as data URLs", () => {
  const body = toWire(
    simpleRequest({
      messages: [{
        role: "user",
        blocks: [{ type: "text", text: "see" }, {
          type: "image",
          mime: "image/png",
          base64: "AA==",
        }],
      }],
      tools: [{ name: "ls", description: "List", parameters: { type: "object" } }],
    }),
    { compat: { maxTokensField: "max_completion_tokens" } },
  );
  assert.deepEqual(body.tools, [
    {
      type: "function",
      function: { name: "ls", description: "List", parameters: { type: "object" } },
    },
  ]);
  assert.deepEqual((body.messages as unknown[])[1], {
    role: "user",
    content: [
      { type: "text", text: "see" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } },
    ],
  });
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const parallelChunks = [
  chunk({ reasoning_content: "think" }),
  chunk({ content: "Hel" }),
  chunk({ content: "lo" }),
  chunk({
    tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "ls", arguments: "" } }],
  }),
  chunk({
    tool_calls: [{
      index: 1,
      id: "b",
      type: "function",
      function: { name: "cat", arguments: '{"p' },
    }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: 'ath":"f"}' } }] }),
  chunk({}, "tool_calls"),
  {
    choices: [],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 2 },
    },
  },
];

Deno.test("fromWire() accumulates interleaved parallel tool calls by index", () => {
  const state = initChatState({});
  const events = parallelChunks.flatMap((c) => fromWire(c, state));
  assert.deepEqual(events.filter((e) => e.type === "tool_call_start"), [
    { type: "tool_call_start", id: "a", name: "ls" },
    { type: "tool_call_start", id: "b", name: "cat" },
  ]);
  assert.deepEqual(finishChat(state, "complete"), {
    type: "done",
    blocks: [
      { type: "thinking", text: "think" },
      { type: "text", text: "Hello" },
      { type: "tool_call", id: "a", name: "ls", args: { x: 1 } },
      { type: "tool_call", id: "b", name: "cat", args: { path: "f" } },
    ],
    stop: "tool_calls",
    usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 },
  });
});

Deno.test("fromWire() keeps rawArgs and leaves args undefined for invalid JSON", () => {
  const state = initChatState({});
  fromWire(
    chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "ls", arguments: "{oops" } }] }),
    state,
  );
  fromWire(chunk({}, "tool_calls"), state);
  const done = finishChat(state, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual(done.blocks, [
    { type: "tool_call", id: "a", name: "ls", args: undefined, rawArgs: "{oops" },
  ]);
});

Deno.test("fromWire() reads the compat reasoning field and length stops", () => {
  const state = initChatState({ reasoningField: "thoughts" });
  fromWire(chunk({ thoughts: "hmm" }), state);
  fromWire(chunk({ content: "x" }, "length"), state);
  const done = finishChat(state, "complete");
  assert.ok(done.type === "done");
  assert.equal(done.stop, "max_tokens");
  assert.deepEqual(done.blocks[0], { type: "thinking", text: "hmm" });
});

Deno.test("fromWire() reads refusal deltas and content_filter as a refusal", () => {
  const state = initChatState({});
  fromWire(chunk({ content: null, refusal: "I can't " }), state);
  fromWire(chunk({ refusal: "help." }, "stop"), state);
  const done = finishChat(state, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual([done.stop, done.blocks], ["refusal", [{
    type: "text",
    text: "I can't help.",
  }]]);
  const filtered = initChatState({});
  fromWire(chunk({ content: "Par" }, "content_filter"), filtered);
  assert.equal((finishChat(filtered, "complete") as { stop: string }).stop, "refusal");
});

Deno.test("fromWire() starts a new call when a known index gets a new id", () => {
  const state = initChatState({});
  fromWire(
    chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "ls", arguments: "{}" } }] }),
    state,
  );
  fromWire(
    chunk({ tool_calls: [{ index: 0, id: "b", function: { name: "pwd", arguments: "{}" } }] }),
    state,
  );
  fromWire(chunk({}, "tool_calls"), state);
  const done = finishChat(state, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual(done.blocks.map((b) => b.type === "tool_call" && b.id), ["a", "b"]);
});

Deno.test("finishChat() reports a stream that ended without finish_reason", () => {
  const state = initChatState({});
  fromWire(chunk({ content: "par" }), state);
  const end = finishChat(state, "complete");
  assert.ok(end.type === "error");
  assert.equal(end.error.retryable, true);
});

Deno.test("createChatProvider() streams text, parallel calls and usage from a server", async () => {
  await using server = serveReplies([{ body: sseData(parallelChunks) }]);
  const provider = createChatProvider(testSettings(server.baseUrl, "chat", {
    headers: { "X-Extra": "1" },
    queryParams: { "api-version": "7" },
    compat: { streamUsage: true },
  }));
  const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  const texts = events.filter((e): e is Extract<StreamEvent, { type: "text_delta" }> =>
    e.type === "text_delta"
  );
  assert.deepEqual(texts.map((e) => e.text), ["Hel", "lo"]);
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  assert.equal(done.stop, "tool_calls");
  assert.equal(done.blocks.length, 4);
  assert.equal(done.usage.cachedInputTokens, 4);
  const [request] = server.requests;
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.search, "?api-version=7");
  assert.equal(request.headers.get("authorization"), "Bearer sk-test");
  assert.equal(request.headers.get("x-extra"), "1");
  assert.deepEqual(request.body.stream_options, { include_usage: true });
});

Deno.test("createChatProvider() sends no Authorization header to keyless servers", async () => {
  await using server = serveReplies([{ body: sseData([chunk({ content: "ok" }, "stop")]) }]);
  const provider = createChatProvider(testSettings(server.baseUrl, "chat", { apiKey: undefined }));
  const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  assert.equal(events.at(-1)?.type, "done");
  assert.equal(server.requests[0].headers.get("authorization"), null);
});

transportTests({
  wire: "chat",
  create: createChatProvider,
  okBody: sseData([chunk({ content: "ok" }), chunk({}, "stop")]),
  partialBody: `data: ${JSON.stringify(chunk({ content: "ok" }))}\n\n`,
});

Deno.test("toWire() leaves out stream_options when compat.streamUsage is false", () => {
  const body = toWire(simpleRequest({ messages: toolTurn }), { compat: { streamUsage: false } });
  assert.equal(body.stream_options, undefined);
});
