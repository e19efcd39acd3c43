import assert from "node:assert/strict";
import { emptyUsage, type Message } from "../model/message.ts";
import type { RequestSpecs } from "../model/request_settings.ts";
import { collect, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import { transportTests } from "./_transport_tests.ts";
import {
  createGeminiProvider,
  finishGemini,
  fromWire,
  geminiUrl,
  initGeminiState,
  toWire,
} from "./gemini.ts";

/** SSE as the Gemini API sends it: data lines with CRLF framing, no `[DONE]`. */
function sse(chunks: unknown[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
}

const candidate = (parts: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }],
});

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "ctx" }, { type: "text", text: "go" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", text: "plan" },
      { type: "text", text: "Calling" },
      { type: "tool_call", id: "ls_1_0", name: "ls", args: { path: "." }, signature: "SIG1" },
      { type: "tool_call", id: "cat_1_1", name: "cat", args: undefined, rawArgs: "{" },
    ],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "ls_1_0",
    name: "ls",
    blocks: [{ type: "text", text: "a" }, { type: "image", mime: "image/png", base64: "AA==" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "cat_1_1",
    name: "cat",
    blocks: [{ type: "text", text: "bad" }],
    isError: true,
  },
  {
    role: "assistant",
    blocks: [{ type: "text", text: "Done", signature: "SIG2" }],
    stop: "end_turn",
    usage: emptyUsage(),
  },
  { role: "user", blocks: [{ type: "text", text: "and then?" }] },
];

Deno.test("gemini toWire() sends contents with function parts and replays signatures", () => {
  const body = toWire(simpleRequest({ messages: history }), { compat: {} });
  assert.deepEqual(body.systemInstruction, { role: "user", parts: [{ text: "Be brief" }] });
  assert.deepEqual(body.contents, [
    { role: "user", parts: [{ text: "ctx" }, { text: "go" }] },
    {
      role: "model",
      parts: [
        { text: "plan", thought: true },
        { text: "Calling" },
        {
          functionCall: { id: "ls_1_0", name: "ls", args: { path: "." } },
          thoughtSignature: "SIG1",
        },
        { functionCall: { id: "cat_1_1", name: "cat", args: {} } },
      ],
    },
    {
      role: "user",
      parts: [
        { functionResponse: { id: "ls_1_0", name: "ls", response: { output: "a" } } },
        { inlineData: { mimeType: "image/png", data: "AA==" } },
        { functionResponse: { id: "cat_1_1", name: "cat", response: { error: "bad" } } },
      ],
    },
    { role: "model", parts: [{ text: "Done", thoughtSignature: "SIG2" }] },
    { role: "user", parts: [{ text: "and then?" }] },
  ]);
  assert.equal("model" in body, false);
  assert.equal("stream" in body, false);
});

Deno.test("gemini toWire() declares tools with parametersJsonSchema and Gemini CLI's sampling", () => {
  const parameters = { type: "object", properties: { path: { type: "string" } } };
  const tools = [{ name: "ls", description: "List", parameters }];
  const body = toWire(simpleRequest({ model: "gemini-3.8-flash", tools }), { compat: {} });
  assert.deepEqual(body.tools, [{
    functionDeclarations: [{ name: "ls", description: "List", parametersJsonSchema: parameters }],
  }]);
  assert.deepEqual(body.generationConfig, {
    temperature: 1,
    topP: 0.95,
    topK: 64,
    thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" },
  });
  assert.equal("tool_choice" in body || "parallel_tool_calls" in body, false);
});

Deno.test("gemini toWire(): Gemini 2.x gets a thinking budget, effort maps to level or budget", () => {
  const config = (overrides: Parameters<typeof simpleRequest>[0]) =>
    toWire(simpleRequest(overrides), { compat: {} }).generationConfig as Record<string, unknown>;
  assert.deepEqual(config({ model: "gemini-2.5-pro" }).thinkingConfig, {
    includeThoughts: true,
    thinkingBudget: 8192,
  });
  assert.deepEqual(config({ model: "gemini-2.5-pro", reasoningEffort: "low" }).thinkingConfig, {
    includeThoughts: true,
    thinkingBudget: 4096,
  });
  assert.deepEqual(config({ model: "gemini-3-pro", reasoningEffort: "low" }).thinkingConfig, {
    includeThoughts: true,
    thinkingLevel: "LOW",
  });
  assert.equal(
    "thinkingConfig" in config({ model: "gemini-3-pro", reasoningEffort: "none" }),
    false,
  );
  const limited = config({ model: "gemini-3-pro", maxOutputTokens: 500 });
  assert.equal(limited.maxOutputTokens, 500);
});

Deno.test("gemini toWire(): the harness's [request.gemini] keys override the wire's", () => {
  const settings: RequestSpecs = {
    gemini: {
      base: { temperature: 0.2, topK: 10, includeThoughts: false, headers: { "x-a": "1" } },
      rules: [{ models: [/^gemma/i], patterns: ["gemma*"], set: { thinkingLevel: "LOW" } }],
    },
  };
  const body = toWire(simpleRequest({ model: "gemma-4", settings }), { compat: {} });
  assert.deepEqual(body.generationConfig, {
    temperature: 0.2,
    topP: 0.95,
    topK: 10,
    thinkingConfig: { includeThoughts: false, thinkingLevel: "LOW" },
  });
});

Deno.test("gemini toWire(): an output schema asks for JSON; dropKeys removes body keys", () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const body = toWire(
    simpleRequest({ outputSchema: { name: "out", schema, strict: true } }),
    { compat: { dropKeys: ["systemInstruction"] } },
  );
  const config = body.generationConfig as Record<string, unknown>;
  assert.equal(config.responseMimeType, "application/json");
  assert.deepEqual(config.responseJsonSchema, schema);
  assert.equal("systemInstruction" in body, false);
});

Deno.test("gemini fromWire() reads thoughts, text, calls, signatures and usage", () => {
  const state = initGeminiState(1700);
  const events = [
    candidate([{ text: "think", thought: true }]),
    candidate([{ text: "Hel" }]),
    candidate([{ text: "lo", thoughtSignature: "T1" }]),
    candidate([
      { functionCall: { name: "ls", args: { path: "." } }, thoughtSignature: "S1" },
      { functionCall: { id: "given", name: "cat", args: {} } },
    ], "STOP"),
    {
      usageMetadata: {
        promptTokenCount: 100,
        cachedContentTokenCount: 40,
        candidatesTokenCount: 7,
        thoughtsTokenCount: 5,
      },
    },
  ].flatMap((chunk) => fromWire(chunk, state));
  assert.deepEqual(events.slice(0, 3), [
    { type: "thinking_delta", text: "think" },
    { type: "text_delta", text: "Hel" },
    { type: "text_delta", text: "lo" },
  ]);
  assert.deepEqual(events.slice(3).map((e) => e.type), [
    "tool_call_start",
    "tool_call_delta",
    "tool_call_start",
    "tool_call_delta",
  ]);
  const done = finishGemini(state, "complete");
  assert.ok(done.type === "done");
  assert.equal(done.stop, "tool_calls");
  assert.deepEqual(done.blocks, [
    { type: "thinking", text: "think" },
    { type: "text", text: "Hello", signature: "T1" },
    { type: "tool_call", id: "ls_1700_0", name: "ls", args: { path: "." }, signature: "S1" },
    { type: "tool_call", id: "given", name: "cat", args: {} },
  ]);
  assert.deepEqual(done.usage, {
    inputTokens: 100,
    outputTokens: 12,
    cachedInputTokens: 40,
    reasoningTokens: 5,
  });
});

Deno.test("gemini fromWire(): a signature on an empty last text part is kept and replayed", () => {
  const state = initGeminiState(5);
  fromWire(candidate([{ functionCall: { id: "c", name: "ls", args: {} } }]), state);
  fromWire(candidate([{ text: "", thoughtSignature: "LATE" }], "STOP"), state);
  const done = finishGemini(state, "complete");
  assert.ok(done.type === "done");
  assert.deepEqual(done.blocks.at(-1), { type: "text", text: "", signature: "LATE" });
  const body = toWire(
    simpleRequest({
      messages: [{ role: "assistant", blocks: done.blocks, stop: done.stop, usage: done.usage }],
    }),
    { compat: {} },
  );
  const [model] = body.contents as { parts: unknown[] }[];
  assert.deepEqual(model.parts.at(-1), { text: "", thoughtSignature: "LATE" });
});

Deno.test("gemini finish reasons: MAX_TOKENS, SAFETY, a malformed call, none at all", () => {
  const end = (reason?: string) => {
    const state = initGeminiState();
    fromWire(candidate([{ text: "x" }], reason), state);
    return finishGemini(state, "complete");
  };
  assert.equal((end("MAX_TOKENS") as { stop: string }).stop, "max_tokens");
  assert.equal((end("SAFETY") as { stop: string }).stop, "refusal");
  const malformed = end("MALFORMED_FUNCTION_CALL");
  assert.ok(malformed.type === "error" && malformed.error.retryable);
  assert.match((malformed as { error: { message: string } }).error.message, /MALFORMED/);
  const cut = end();
  assert.ok(cut.type === "error" && /no finishReason/.test(cut.error.message));
});

Deno.test("gemini fromWire(): a blocked prompt is an error that names the reason", () => {
  const events = fromWire({ promptFeedback: { blockReason: "SAFETY" } }, initGeminiState());
  assert.ok(events[0]?.type === "error");
  assert.match(events[0].error.message, /blocked the prompt \(SAFETY\)/);
  assert.equal(events[0].error.retryable, false);
});

Deno.test("geminiUrl() puts the model in the path and asks for SSE", () => {
  assert.equal(
    geminiUrl("https://generativelanguage.googleapis.com/v1beta/", "models/gemini-3-pro", {
      k: "v",
    }),
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro:streamGenerateContent" +
      "?alt=sse&k=v",
  );
});

Deno.test("gemini provider: posts with x-goog-api-key and replays the signed call", async () => {
  const first = sse([
    candidate([{ text: "hm", thought: true }]),
    {
      ...candidate([{ functionCall: { name: "ls", args: {} }, thoughtSignature: "SIG" }], "STOP"),
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
    },
  ]);
  await using server = serveReplies([{ body: first }]);
  const settings = testSettings(server.baseUrl, "gemini", { apiKey: "g-key" });
  const provider = createGeminiProvider(settings);
  const events = await collect(
    provider.stream(simpleRequest({ model: "gemini-3-pro" }), new AbortController().signal),
  );
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  const [request] = server.requests;
  assert.equal(request.path, "/v1/models/gemini-3-pro:streamGenerateContent");
  assert.equal(request.search, "?alt=sse");
  assert.equal(request.headers.get("x-goog-api-key"), "g-key");
  assert.equal(request.headers.get("authorization"), null);
  const call = done.blocks.find((b) => b.type === "tool_call");
  const replay = toWire(
    simpleRequest({
      messages: [...simpleRequest().messages, {
        role: "assistant",
        blocks: done.blocks.filter((b) => b.type !== "thinking"),
        stop: done.stop,
        usage: done.usage,
      }, {
        role: "tool_result",
        callId: call!.type === "tool_call" ? call!.id : "",
        name: "ls",
        blocks: [{ type: "text", text: "a" }],
        isError: false,
      }],
    }),
    { compat: {} },
  );
  const contents = replay.contents as { parts: Record<string, unknown>[] }[];
  assert.equal(contents[1].parts[0].thoughtSignature, "SIG");
  const response = contents[2].parts[0].functionResponse as Record<string, unknown>;
  assert.equal(response.id, (contents[1].parts[0].functionCall as Record<string, unknown>).id);
});

Deno.test("gemini provider: an error body mid-stream and a bad key's 400 become failures", async () => {
  const overloaded = sse([{ error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } }]);
  const badKey = JSON.stringify({
    error: {
      code: 400,
      message: "API key not valid. Please pass a valid API key.",
      status: "INVALID_ARGUMENT",
      details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
    },
  });
  await using server = serveReplies([{ body: overloaded }, { status: 400, body: badKey }]);
  const settings = testSettings(server.baseUrl, "gemini", { envKey: "GEMINI_API_KEY" });
  const events = await collect(
    createGeminiProvider(settings).stream(simpleRequest(), new AbortController().signal),
  );
  const retry = events.find((e) => e.type === "retry");
  assert.ok(retry?.type === "retry" && /overloaded/.test(retry.reason));
  const last = events.at(-1);
  assert.ok(last?.type === "error");
  assert.match(last.error.message, /HTTP 400: API key not valid/);
  assert.match(last.error.hint ?? "", /\$GEMINI_API_KEY/);
  assert.equal(last.error.retryable, false);
});

Deno.test("gemini provider: a 429 waits the RetryInfo delay of the error body", async () => {
  const limited = JSON.stringify({
    error: {
      code: 429,
      message: "quota",
      status: "RESOURCE_EXHAUSTED",
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.01s" }],
    },
  });
  const ok = sse([candidate([{ text: "ok" }], "STOP")]);
  await using server = serveReplies([{ status: 429, body: limited }, { body: ok }]);
  const events = await collect(
    createGeminiProvider(testSettings(server.baseUrl, "gemini")).stream(
      simpleRequest(),
      new AbortController().signal,
    ),
  );
  const retry = events.find((e) => e.type === "retry");
  assert.ok(retry?.type === "retry");
  assert.equal(retry.delayMs, 10);
  assert.equal(events.at(-1)?.type, "done");
});

const partial = [candidate([{ text: "ok" }])];

transportTests({
  wire: "gemini",
  create: createGeminiProvider,
  okBody: sse([...partial, candidate([{ text: "" }], "STOP")]),
  partialBody: sse(partial),
});
