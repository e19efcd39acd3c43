/** The fake provider's request checks, scripted errors, script exhaustion and script parsing. */
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { loadScript, parseScript, type ScriptTurn } from "./script.ts";
import { type FakeProvider, startFakeProvider } from "./server.ts";

const ANTHROPIC_HEADERS = { "anthropic-version": "2023-06-01", "x-api-key": "test-key" };
const TOOL_TURN: ScriptTurn = {
  reply: { text: "Reading.", tool_calls: [{ name: "Read", args: { path: "a.txt" } }] },
};
const DONE_TURN: ScriptTurn = { reply: { text: "Done." } };

async function post(fake: FakeProvider, path: string, body: unknown, headers = {}) {
  const res = await fetch(`${fake.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

function problems(fake: FakeProvider): string {
  return fake.failures.flatMap((failure) => failure.problems).join("\n");
}

Deno.test("startFakeProvider() answers a tool result for a never-issued id with 400", async () => {
  await using fake = startFakeProvider([DONE_TURN]);
  const client = new OpenAI({ apiKey: "k", baseURL: fake.baseUrl, maxRetries: 0 });
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: "user", content: "read a.txt" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_9", type: "function", function: { name: "Read", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_9", content: "text" },
    { role: "tool", tool_call_id: "call_8", content: "text" },
  ];
  await assert.rejects(
    client.chat.completions.create({ model: "m", messages }),
    (error: { status?: number; message: string }) =>
      error.status === 400 && /never issued/.test(error.message),
  );
  assert.equal(fake.failures.length, 1);
  assert.deepEqual((fake.failures[0].body as { messages: unknown }).messages, messages);
  assert.match(problems(fake), /"call_9" \(Read\) was never issued/);
  assert.match(problems(fake), /"call_8" answers no tool call earlier in the request/);
  assert.equal(fake.remaining(), 1);
});

Deno.test("startFakeProvider() rejects a tool_use left without a tool_result", async () => {
  await using fake = startFakeProvider([TOOL_TURN, DONE_TURN]);
  const first = await post(fake, "/v1/messages", {
    model: "m",
    max_tokens: 100,
    messages: [{ role: "user", content: "read a.txt" }],
  }, ANTHROPIC_HEADERS);
  assert.equal(first.status, 200);
  const res = await post(fake, "/v1/messages", {
    model: "m",
    max_tokens: 100,
    messages: [
      { role: "user", content: "read a.txt" },
      { role: "assistant", content: first.json.content },
      { role: "user", content: [{ type: "text", text: "never mind" }] },
    ],
  }, ANTHROPIC_HEADERS);
  assert.equal(res.status, 400);
  assert.equal(res.json.type, "error");
  assert.match(res.json.error.message, /"toolu_1" \(Read\) has no result before the next user/);
  assert.equal(res.headers.get("x-should-retry"), "false");
  assert.equal(fake.remaining(), 1);
});

Deno.test("startFakeProvider() rejects tool calls that come back changed", async () => {
  await using fake = startFakeProvider([TOOL_TURN, DONE_TURN]);
  const first = await post(fake, "/v1/responses", { model: "m", input: "read a.txt" });
  const call = first.json.output.find((item: { type: string }) => item.type === "function_call");
  assert.deepEqual([call.id, call.call_id], ["fc_1", "call_1"]);
  const res = await post(fake, "/v1/responses", {
    model: "m",
    input: [
      { role: "user", content: "read a.txt" },
      { ...call, id: "fc_2", arguments: '{"path":"b.txt"}' },
      { type: "function_call_output", call_id: "call_1", output: "contents" },
    ],
  });
  assert.equal(res.status, 400);
  assert.match(problems(fake), /came back with arguments \{"path":"b.txt"\}/);
  assert.match(problems(fake), /came back with item id "fc_2", issued as "fc_1"/);
});

Deno.test("startFakeProvider() rejects thinking whose text no longer matches its signature", async () => {
  await using fake = startFakeProvider([{ reply: { thinking: "Plan.", text: "Hi." } }, DONE_TURN]);
  const body = { model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };
  const first = await post(fake, "/v1/messages", body, ANTHROPIC_HEADERS);
  const [thinking, text] = first.json.content;
  const res = await post(fake, "/v1/messages", {
    ...body,
    messages: [
      ...body.messages,
      { role: "assistant", content: [{ ...thinking, thinking: "Edited." }, text] },
      { role: "user", content: "and?" },
    ],
  }, ANTHROPIC_HEADERS);
  assert.equal(res.status, 400);
  assert.match(problems(fake), /thinking block came back with text that differs/);
});

Deno.test("startFakeProvider() accepts results for a previous_response_id", async () => {
  await using fake = startFakeProvider([TOOL_TURN, DONE_TURN, DONE_TURN]);
  const first = await post(fake, "/v1/responses", { model: "m", input: "read a.txt" });
  const output = [{ type: "function_call_output", call_id: "call_1", output: "x" }];
  const ok = await post(fake, "/v1/responses", {
    model: "m",
    previous_response_id: first.json.id,
    input: output,
  });
  assert.equal(ok.status, 200);
  const bad = await post(fake, "/v1/responses", {
    model: "m",
    previous_response_id: "resp_x",
    input: output,
  });
  assert.equal(bad.status, 400);
  assert.match(problems(fake), /"previous_response_id" "resp_x" is unknown/);
  assert.match(problems(fake), /"call_1" answers no tool call/);
});

Deno.test("startFakeProvider() answers an error turn with its status, then serves the next turn", async () => {
  await using fake = startFakeProvider(
    await loadScript(new URL("../fixtures/scripts/retry_then_answer.jsonl", import.meta.url)),
  );
  const body = {
    model: "m",
    max_tokens: 100,
    messages: [{ role: "user" as const, content: "hello" }],
  };
  const limited = await post(fake, "/v1/messages", body, ANTHROPIC_HEADERS);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "0");
  assert.equal(limited.json.error.type, "rate_limit_error");
  const client = new Anthropic({ apiKey: "k", baseURL: fake.origin, maxRetries: 1 });
  const message = await client.messages.create(body);
  assert.deepEqual(message.content, [{ type: "text", text: "Hello after two retries." }]);
  assert.deepEqual(fake.requests.map((r) => r.turn), [0, 1, 2]);
  assert.deepEqual(fake.failures, []);
});

Deno.test("startFakeProvider() answers 500 and records a failure past the end of the script", async () => {
  await using fake = startFakeProvider([DONE_TURN]);
  const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
  assert.equal((await post(fake, "/v1/chat/completions", body)).status, 200);
  const res = await post(fake, "/v1/chat/completions", body);
  assert.equal(res.status, 500);
  assert.equal(res.headers.get("x-should-retry"), "false");
  assert.match(res.json.error.message, /script is exhausted: request 2 arrived after all 1 turns/);
  assert.deepEqual(fake.failures.map((f) => f.request), [1]);
});

Deno.test("startFakeProvider() holds a turn until its expect conditions are met", async () => {
  const expect = {
    system_contains: "rules",
    tools_include: ["Edit"],
    user_contains: "fix",
    last_tool_result_contains: "passed",
  };
  await using fake = startFakeProvider([{ expect, reply: { text: "ok" } }], {
    allowForeignIds: true,
  });
  const miss = await post(fake, "/v1/responses", { model: "m", input: "hello" });
  assert.equal(miss.status, 400);
  assert.equal(fake.failures[0].problems.length, 4);
  assert.match(problems(fake), /expect\.user_contains: wanted "fix" in "hello"/);
  assert.match(problems(fake), /expect\.tools_include: no tool named "Edit"/);
  assert.equal(fake.remaining(), 1);
  const hit = await post(fake, "/v1/responses", {
    model: "m",
    instructions: "Follow the rules.",
    tools: [{ type: "function", name: "Edit", parameters: { type: "object" } }],
    input: [
      { role: "user", content: [{ type: "input_text", text: "fix the test" }] },
      { type: "function_call", call_id: "c1", name: "Bash", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "1 passed" },
    ],
  });
  assert.equal(hit.status, 200);
  assert.equal(fake.remaining(), 0);
});

Deno.test("startFakeProvider() rejects tools declared in another wire's shape", async () => {
  await using fake = startFakeProvider([]);
  const schema = { type: "object", properties: {} };
  const chatTool = {
    type: "function",
    function: { name: "Read", description: "d", parameters: schema },
  };
  const flatTool = { type: "function", name: "Read", description: "d", parameters: schema };
  const input = [{ role: "user", content: "hi" }];
  await post(fake, "/v1/chat/completions", { model: "m", messages: input, tools: [flatTool] });
  await post(fake, "/v1/responses", { model: "m", input, tools: [chatTool, flatTool, flatTool] });
  await post(fake, "/v1/messages", {
    model: "m",
    max_tokens: 1,
    messages: input,
    tools: [flatTool],
  }, ANTHROPIC_HEADERS);
  const [chat, responses, messages] = fake.failures.map((f) => f.problems.join("\n"));
  assert.match(chat, /tools\[0\] must have a "function" object/);
  assert.match(responses, /tools\[0\] has a nested "function" object/);
  assert.match(responses, /tools\[2\] repeats the tool name "Read"/);
  assert.match(messages, /tools\[0\] uses OpenAI fields/);
});

Deno.test("startFakeProvider() checks model, headers and max_tokens on messages", async () => {
  await using fake = startFakeProvider([DONE_TURN]);
  const res = await post(fake, "/v1/messages", {
    model: "",
    messages: [{
      role: "user",
      content: [{ type: "text", text: "a" }, { type: "tool_result", tool_use_id: "x" }],
    }],
  });
  assert.equal(res.status, 400);
  const text = problems(fake);
  for (
    const pattern of [
      /"model" must be a non-empty string/,
      /"anthropic-version" is missing/,
      /Neither an "x-api-key" header nor bearer/,
      /"max_tokens" must be a positive integer/,
      /tool_result after other content/,
    ]
  ) {
    assert.match(text, pattern);
  }
});

Deno.test("parseScript() skips blank and comment lines and names the bad line", () => {
  const turns = parseScript('// greeting\n\n{"reply":{"text":"hi"}}\n', "inline.jsonl");
  assert.deepEqual(turns, [{ reply: { text: "hi" } }]);
  assert.throws(
    () => parseScript('{"reply":{"text":"hi"}}\n{"reply":{"toolcalls":[]}}', "inline.jsonl"),
    /"inline.jsonl" at line 2: .*toolcalls/s,
  );
  assert.throws(() => parseScript('{"reply":{},"error":{"status":500}}'), /exactly one of/);
  assert.throws(() => parseScript("{oops"), /Cannot parse "script" at line 1/);
});
