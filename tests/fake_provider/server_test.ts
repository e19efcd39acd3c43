/**
 * The fake provider's output, read by the official SDKs: if `openai` and `@anthropic-ai/sdk`
 * accept the streams and recover the scripted text, reasoning, tool calls and usage, the
 * provider adapters under test are reading something real.
 */
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { loadScript } from "./script.ts";
import { startFakeProvider } from "./server.ts";

const LIST_FILES = new URL("../fixtures/scripts/list_files.jsonl", import.meta.url);
const SCHEMA = {
  type: "object" as const,
  properties: { command: { type: "string" }, timeout: { type: "number" } },
  required: ["command"],
};
const ARGS = { command: "ls -la", timeout: 5000 };
const THINKING = "The user wants a listing, so run ls.";

function openai(baseURL: string) {
  return new OpenAI({ apiKey: "test-key", baseURL, maxRetries: 0 });
}

Deno.test("startFakeProvider() streams chat completions that the openai SDK parses", async () => {
  await using fake = startFakeProvider(await loadScript(LIST_FILES));
  const client = openai(fake.baseUrl);
  const tools = [{
    type: "function" as const,
    function: { name: "Bash", description: "Runs a command", parameters: SCHEMA },
  }];
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: "Be terse." },
    { role: "user", content: "Please list the files." },
  ];
  const stream = await client.chat.completions.create({
    model: "gpt-test",
    messages,
    tools,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  let reasoning = "";
  let deltas = 0;
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  const calls: { id: string; name: string; args: string }[] = [];
  for await (const chunk of stream) {
    usage = chunk.usage ?? usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    deltas++;
    text += choice.delta.content ?? "";
    reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? "";
    for (const call of choice.delta.tool_calls ?? []) {
      calls[call.index] ??= { id: call.id!, name: call.function!.name!, args: "" };
      calls[call.index].args += call.function?.arguments ?? "";
    }
    finish = choice.finish_reason ?? finish;
  }
  assert.equal(text, "Listing the files.");
  assert.equal(reasoning, THINKING);
  assert.ok(deltas > 5, `expected several chunks, got ${deltas}`);
  assert.deepEqual(calls.map((c) => ({ ...c, args: JSON.parse(c.args) })), [
    { id: "call_1", name: "Bash", args: ARGS },
  ]);
  assert.equal(finish, "tool_calls");
  assert.equal(usage?.prompt_tokens, 120);
  assert.equal(usage?.completion_tokens, 30);
  assert.equal(usage?.prompt_tokens_details?.cached_tokens, 100);
  assert.equal(usage?.completion_tokens_details?.reasoning_tokens, 7);

  messages.push(
    {
      role: "assistant",
      content: text,
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.args },
      })),
    },
    { role: "tool", tool_call_id: "call_1", content: "a.txt\nb.txt\n" },
  );
  const final = await client.chat.completions
    .stream({ model: "gpt-test", messages, tools, stream_options: { include_usage: true } })
    .finalChatCompletion();
  assert.equal(final.choices[0].message.content, "There is one file: a.txt.");
  assert.equal(final.choices[0].finish_reason, "stop");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() streams responses that the openai SDK parses", async () => {
  await using fake = startFakeProvider(await loadScript(LIST_FILES));
  const client = openai(fake.baseUrl);
  const tools = [{
    type: "function" as const,
    name: "Bash",
    description: "Runs a command",
    parameters: SCHEMA,
    strict: false,
  }];
  const input: ResponseInputItem[] = [{ role: "user", content: "Please list the files." }];
  const stream = await client.responses.create({
    model: "gpt-test",
    instructions: "Be terse.",
    input,
    tools,
    stream: true,
  });
  let text = "";
  let summary = "";
  let args = "";
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    if (event.type === "response.output_text.delta") text += event.delta;
    if (event.type === "response.reasoning_summary_text.delta") summary += event.delta;
    if (event.type === "response.function_call_arguments.delta") args += event.delta;
    if (event.type === "response.completed") completed = event.response;
  }
  assert.equal(text, "Listing the files.");
  assert.equal(summary, THINKING);
  assert.deepEqual(JSON.parse(args), ARGS);
  assert.ok(completed);
  assert.deepEqual(completed.output.map((item) => item.type), [
    "reasoning",
    "message",
    "function_call",
  ]);
  const reasoning = completed.output[0] as OpenAI.Responses.ResponseReasoningItem;
  assert.equal(typeof reasoning.encrypted_content, "string");
  const call = completed.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
  assert.deepEqual([call.id, call.call_id, call.name], ["fc_1", "call_1", "Bash"]);
  assert.equal(completed.usage?.input_tokens, 120);
  assert.equal(completed.usage?.output_tokens_details.reasoning_tokens, 7);

  input.push(...completed.output as ResponseInputItem[], {
    type: "function_call_output",
    call_id: call.call_id,
    output: "a.txt\n",
  });
  const final = await client.responses
    .stream({ model: "gpt-test", instructions: "Be terse.", input, tools })
    .finalResponse();
  assert.equal(final.output_text, "There is one file: a.txt.");
  assert.equal(final.status, "completed");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() streams messages that the anthropic SDK parses", async () => {
  await using fake = startFakeProvider(await loadScript(LIST_FILES));
  const client = new Anthropic({ apiKey: "test-key", baseURL: fake.origin, maxRetries: 0 });
  const tools = [{ name: "Bash", description: "Runs a command", input_schema: SCHEMA }];
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Please list the files." }];
  const base = { model: "claude-test", max_tokens: 4096, system: "Be terse.", tools };
  const stream = client.messages.stream({ ...base, messages });
  let textEvents = 0;
  stream.on("text", () => textEvents++);
  const message = await stream.finalMessage();
  assert.ok(textEvents > 1, `expected several text deltas, got ${textEvents}`);
  assert.deepEqual(message.content.map((block) => block.type), ["thinking", "text", "tool_use"]);
  const [thinking, text, toolUse] = message.content as [
    Anthropic.ThinkingBlock,
    Anthropic.TextBlock,
    Anthropic.ToolUseBlock,
  ];
  assert.equal(thinking.thinking, THINKING);
  assert.ok(thinking.signature.length > 0);
  assert.equal(text.text, "Listing the files.");
  assert.deepEqual([toolUse.id, toolUse.name, toolUse.input], ["toolu_1", "Bash", ARGS]);
  assert.equal(message.stop_reason, "tool_use");
  assert.equal(message.usage.input_tokens, 20);
  assert.equal(message.usage.cache_read_input_tokens, 100);
  assert.equal(message.usage.output_tokens, 30);

  messages.push({ role: "assistant", content: message.content }, {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "a.txt\n" }],
  });
  const final = await client.messages.stream({ ...base, messages }).finalMessage();
  assert.deepEqual(final.content, [{ type: "text", text: "There is one file: a.txt." }]);
  assert.equal(final.stop_reason, "end_turn");
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() renders a scripted refusal that each SDK reads back", async () => {
  const REFUSAL = "I can't help with that.";
  const turn = { reply: { refusal: REFUSAL } };
  await using fake = startFakeProvider([turn, turn, turn]);
  const client = openai(fake.baseUrl);
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "hi" }];
  let chatRefusal = "";
  for await (
    const chunk of await client.chat.completions.create({ model: "m", messages, stream: true })
  ) {
    chatRefusal += chunk.choices[0]?.delta.refusal ?? "";
  }
  assert.equal(chatRefusal, REFUSAL);
  const stream = client.responses.stream({ model: "m", input: "hi" });
  let deltas = "";
  stream.on("response.refusal.delta", (event) => deltas += event.delta);
  const response = await stream.finalResponse();
  assert.equal(deltas, REFUSAL);
  const item = response.output[0] as OpenAI.Responses.ResponseOutputMessage;
  assert.deepEqual(item.content.map((p) => p.type === "refusal" && p.refusal), [REFUSAL]);
  const anthropic = new Anthropic({ apiKey: "k", baseURL: fake.origin, maxRetries: 0 });
  const message = await anthropic.messages
    .stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
    .finalMessage();
  assert.equal(message.stop_reason, "refusal");
  assert.deepEqual(message.content, [{ type: "text", text: REFUSAL }]);
  assert.deepEqual(fake.failures, []);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() answers non-streaming requests with JSON bodies", async () => {
  const reply = { reply: { text: "Plain.", tool_calls: [{ name: "Read", args: { path: "a" } }] } };
  await using fake = startFakeProvider([reply, reply, reply]);
  const client = openai(fake.baseUrl);
  const chat = await client.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
  });
  assert.equal(chat.choices[0].message.content, "Plain.");
  assert.deepEqual(
    chat.choices[0].message.tool_calls?.map((c) => c.type === "function" && c.function),
    [
      { name: "Read", arguments: '{"path":"a"}' },
    ],
  );
  const response = await client.responses.create({ model: "m", input: "hi" });
  assert.equal(response.output_text, "Plain.");
  assert.equal(
    response.usage?.total_tokens,
    response.usage!.input_tokens + response.usage!.output_tokens,
  );
  const anthropic = new Anthropic({ apiKey: "k", baseURL: fake.origin, maxRetries: 0 });
  const message = await anthropic.messages.create({
    model: "m",
    max_tokens: 10,
    messages: [{ role: "user", content: "hi" }],
  });
  assert.deepEqual(message.content.at(-1), {
    type: "tool_use",
    id: "toolu_1",
    name: "Read",
    input: { path: "a" },
  });
  assert.deepEqual(fake.failures, []);
});

Deno.test("startFakeProvider() spaces frames by chunkDelayMs and survives an abort", async () => {
  await using fake = startFakeProvider([{ reply: { text: "x".repeat(64) } }], {
    chunkDelayMs: 25,
    chunkSize: 4,
  });
  const controller = new AbortController();
  const started = performance.now();
  const res = await fetch(`${fake.baseUrl}/chat/completions`, {
    method: "POST",
    signal: controller.signal,
    body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const reader = res.body!.getReader();
  await reader.read();
  await reader.read();
  assert.ok(performance.now() - started >= 20, "the second frame came without a pause");
  controller.abort();
  await assert.rejects(reader.read());
  assert.equal(fake.remaining(), 0);
  assert.deepEqual(fake.failures, []);
});

Deno.test("main.ts prints the base URL first and serves the script until killed", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./main.ts", import.meta.url).pathname,
      "--script",
      LIST_FILES.pathname,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  const baseUrl = out.split("\n")[0];
  assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /expect\.user_contains/);
  child.kill("SIGTERM");
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  await reader.cancel();
  assert.equal(status.code, 1);
  assert.match(stderr, /request 0 \/v1\/chat\/completions: expect\.user_contains/);
});

Deno.test("startFakeProvider() lists its models and refuses a wrong key as the SDKs expect", async () => {
  await using fake = startFakeProvider([{ reply: { text: "hi" } }], {
    apiKey: "right",
    models: ["m1", "m2"],
  });
  const listed = await new OpenAI({ apiKey: "right", baseURL: fake.baseUrl, maxRetries: 0 })
    .models.list();
  assert.deepEqual(listed.data.map((m) => m.id), ["m1", "m2"]);
  const wrong = new OpenAI({ apiKey: "wrong", baseURL: fake.baseUrl, maxRetries: 0 });
  await assert.rejects(wrong.models.list(), OpenAI.AuthenticationError);
  const anthropic = new Anthropic({ apiKey: "wrong", baseURL: fake.origin, maxRetries: 0 });
  await assert.rejects(
    anthropic.messages.create({
      model: "m1",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    }),
    Anthropic.AuthenticationError,
  );
  assert.equal(fake.remaining(), 1, "a refused request consumes no turn");
  assert.deepEqual(fake.failures, []);
});
