import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import { collect, serveReplies, simpleRequest, sseEvents, testSettings } from "./_testing.ts";
import { transportTests } from "./_transport_tests.ts";
import {
  createResponsesProvider,
  finishResponses,
  fromWire,
  initResponsesState,
  toWire,
} from "./openai_responses.ts";

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "go" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", text: "plan", id: "rs_1", encrypted: "ENC" },
      { type: "thinking", text: "from another wire" },
      { type: "text", text: "Calling" },
      { type: "tool_call", id: "call_1", name: "ls", args: { path: "." } },
      { type: "tool_call", id: "call_2", name: "cat", args: undefined, rawArgs: "{" },
    ],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "call_1",
    name: "ls",
    blocks: [{ type: "text", text: "a" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "call_2",
    name: "cat",
    blocks: [{ type: "text", text: "e" }],
    isError: true,
  },
];

Deno.test("toWire() maps history to input items in order", () => {
  const body = toWire(simpleRequest({ messages: history }), { compat: {} });
  assert.equal(body.instructions, "Be brief");
  assert.equal(body.store, false);
  assert.deepEqual(body.input, [
    { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
    {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "plan" }],
      encrypted_content: "ENC",
    },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Calling" }] },
    { type: "function_call", call_id: "call_1", name: "ls", arguments: '{"path":"."}' },
    { type: "function_call", call_id: "call_2", name: "cat", arguments: "{}" },
    { type: "function_call_output", call_id: "call_1", output: "a" },
    { type: "function_call_output", call_id: "call_2", output: "e" },
  ]);
});

Deno.test("toWire() declares non-strict function tools and asks for encrypted reasoning", () => {
  const body = toWire(
    simpleRequest({
      tools: [{ name: "ls", description: "List", parameters: { type: "object" } }],
      reasoningEffort: "high",
      maxOutputTokens: 500,
    }),
    { compat: {} },
  );
  assert.deepEqual(body.tools, [
    {
      type: "function",
      name: "ls",
      description: "List",
      parameters: { type: "object" },
      strict: false,
    },
  ]);
  assert.deepEqual(body.reasoning, { effort: "high", summary: "auto" });
  assert.deepEqual(body.include, ["reasoning.encrypted_content"]);
  assert.equal(body.max_output_tokens, 500);
  assert.equal(toWire(simpleRequest(), { compat: {} }).include, undefined);
});

const usage = {
  input_tokens: 20,
  output_tokens: 7,
  input_tokens_details: { cached_tokens: 8 },
  output_tokens_details: { reasoning_tokens: 3 },
};

const parallelEvents = [
  { type: "response.created", response: { id: "resp_1", status: "in_progress" } },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "reasoning", id: "rs_9", summary: [] },
  },
  {
    type: "response.reasoning_summary_text.delta",
    item_id: "rs_9",
    output_index: 0,
    summary_index: 0,
    delta: "Plan",
  },
  {
    type: "response.reasoning_summary_text.delta",
    item_id: "rs_9",
    output_index: 0,
    summary_index: 1,
    delta: "More",
  },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: { type: "reasoning", id: "rs_9", summary: [], encrypted_content: "SECRET" },
  },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: { type: "message", id: "msg_1", content: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, delta: "Hi" },
  {
    type: "response.output_item.added",
    output_index: 2,
    item: { type: "function_call", id: "fc_1", call_id: "call_a", name: "ls", arguments: "" },
  },
  {
    type: "response.output_item.added",
    output_index: 3,
    item: { type: "function_call", id: "fc_2", call_id: "call_b", name: "cat", arguments: "" },
  },
  {
    type: "response.function_call_arguments.delta",
    item_id: "fc_1",
    output_index: 2,
    delta: '{"x":',
  },
  {
    type: "response.function_call_arguments.delta",
    item_id: "fc_2",
    output_index: 3,
    delta: '{"p":2}',
  },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 2, delta: "1}" },
  {
    type: "response.output_item.done",
    output_index: 2,
    item: {
      type: "function_call",
      id: "fc_1",
      call_id: "call_a",
      name: "ls",
      arguments: '{"x":1}',
    },
  },
  { type: "response.completed", response: { id: "resp_1", status: "completed", usage } },
];

Deno.test("fromWire() assembles reasoning, text and parallel calls", () => {
  const state = initResponsesState();
  const events = parallelEvents.flatMap((e) => fromWire(e, state));
  assert.deepEqual(events.filter((e) => e.type === "thinking_delta"), [
    { type: "thinking_delta", text: "Plan" },
    { type: "thinking_delta", text: "\n\nMore" },
  ]);
  assert.deepEqual(finishResponses(state, "complete"), {
    type: "done",
    blocks: [
      { type: "thinking", text: "Plan\n\nMore", id: "rs_9", encrypted: "SECRET" },
      { type: "text", text: "Hi" },
      { type: "tool_call", id: "call_a", name: "ls", args: { x: 1 } },
      { type: "tool_call", id: "call_b", name: "cat", args: { p: 2 } },
    ],
    stop: "tool_calls",
    usage: { inputTokens: 20, outputTokens: 7, cachedInputTokens: 8, reasoningTokens: 3 },
  });
});

Deno.test("fromWire() turns response.failed and error events into error events", () => {
  const failed = fromWire(
    { type: "response.failed", response: { error: { code: "server_error", message: "oops" } } },
    initResponsesState(),
  );
  assert.deepEqual(failed, [
    { type: "error", error: { message: "Response failed: oops (server_error)", retryable: true } },
  ]);
  const [error] = fromWire({ type: "error", code: "bad", message: "no" }, initResponsesState());
  assert.ok(error.type === "error");
  assert.equal(error.error.retryable, false);
});

Deno.test("finishResponses() maps incomplete max_output_tokens to max_tokens", () => {
  const state = initResponsesState();
  fromWire({ type: "response.output_text.delta", item_id: "m", delta: "cut" }, state);
  fromWire({
    type: "response.incomplete",
    response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
  }, state);
  const done = finishResponses(state, "complete");
  assert.ok(done.type === "done");
  assert.equal(done.stop, "max_tokens");
});

Deno.test("finishResponses() maps refusal deltas and a refusal content part to refusal", () => {
  const streamed = initResponsesState();
  fromWire({ type: "response.refusal.delta", item_id: "m", delta: "No." }, streamed);
  fromWire({ type: "response.completed", response: { status: "completed" } }, streamed);
  const done = finishResponses(streamed, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual([done.stop, done.blocks], ["refusal", [{ type: "text", text: "No." }]]);
  const item = initResponsesState();
  const content = [{ type: "refusal", refusal: "No." }];
  fromWire(
    { type: "response.output_item.done", item: { id: "m", type: "message", content } },
    item,
  );
  fromWire({ type: "response.completed", response: { status: "completed" } }, item);
  assert.deepEqual(finishResponses(item, "complete"), done);
});

Deno.test("finishResponses() reports a stream without response.completed", () => {
  const end = finishResponses(initResponsesState(), "complete");
  assert.ok(end.type === "error");
  assert.equal(end.error.retryable, true);
});

Deno.test("createResponsesProvider() streams from a server at base_url/responses", async () => {
  await using server = serveReplies([{ body: sseEvents(parallelEvents) }]);
  const provider = createResponsesProvider(testSettings(server.baseUrl, "responses"));
  const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  assert.equal(done.blocks.length, 4);
  assert.equal(done.usage.reasoningTokens, 3);
  assert.equal(server.requests[0].path, "/v1/responses");
  assert.equal(server.requests[0].body.stream, true);
});

const ok = [
  { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "m1" } },
  { type: "response.output_text.delta", item_id: "m1", output_index: 0, delta: "ok" },
];

transportTests({
  wire: "responses",
  create: createResponsesProvider,
  okBody: sseEvents([...ok, { type: "response.completed", response: { status: "completed" } }]),
  partialBody: sseEvents(ok),
});
