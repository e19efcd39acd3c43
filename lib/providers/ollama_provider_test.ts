import assert from "node:assert/strict";
import type { StreamEvent } from "../model/stream.ts";
import { startFakeOllama } from "../../tests/fake_ollama/server.ts";
import { collect, type Reply, serveReplies, simpleRequest, testSettings } from "./_testing.ts";
import { chooseContextWindow, ollamaHostBaseUrl, showModel } from "./ollama_api.ts";
import { createOllamaProvider } from "./ollama_chat.ts";
import type { ProviderSettings } from "./types.ts";

const ls = { name: "ls", description: "list", parameters: { type: "object" } };

function ollama(baseUrl: string, overrides: Partial<ProviderSettings> = {}) {
  return createOllamaProvider(
    testSettings(baseUrl, "chat", {
      id: "ollama",
      name: "Ollama",
      apiKey: undefined,
      ...overrides,
    }),
  );
}

function lastOf(events: StreamEvent[]): StreamEvent {
  const last = events.at(-1);
  assert.ok(last, "the stream yielded nothing");
  return last;
}

Deno.test("Ollama provider streams thinking and a tool call, asking for a 64k window capped at the model's", async () => {
  await using fake = startFakeOllama({
    models: [
      {
        name: "qwen3:8b",
        capabilities: ["completion", "tools", "thinking"],
        contextLength: 262_144,
      },
      { name: "small:1b", contextLength: 32_768 },
    ],
    script: [
      { reply: { thinking: "let me look", tool_calls: [{ name: "ls", args: { path: "." } }] } },
      { reply: { text: "done" } },
    ],
  });
  const provider = ollama(fake.baseUrl);
  const events = await collect(
    provider.stream(
      simpleRequest({ model: "qwen3:8b", tools: [ls] }),
      new AbortController().signal,
    ),
  );
  assert.deepEqual(fake.failures, []);
  const done = lastOf(events);
  assert.ok(done.type === "done", JSON.stringify(done));
  assert.equal(done.stop, "tool_calls");
  assert.deepEqual(done.blocks[0], { type: "thinking", text: "let me look" });
  assert.deepEqual(done.blocks[1], {
    type: "tool_call",
    id: "call_1",
    name: "ls",
    args: { path: "." },
  });
  const [body] = fake.chatBodies();
  assert.deepEqual(body.options, { num_ctx: 65_536 });
  assert.equal(body.think, true);
  const small = await collect(
    provider.stream(simpleRequest({ model: "small:1b" }), new AbortController().signal),
  );
  assert.equal(lastOf(small).type, "done");
  assert.deepEqual(
    fake.chatBodies()[1].options,
    { num_ctx: 32_768 },
    "capped at the model maximum",
  );
  assert.equal("think" in fake.chatBodies()[1], false);
});

Deno.test("Ollama provider refuses tools for a model without the capability before any chat request", async () => {
  await using fake = startFakeOllama({
    models: [{ name: "gemma3:4b", capabilities: ["completion", "vision"] }],
    script: [{ reply: { text: "never" } }],
  });
  const events = await collect(
    ollama(fake.baseUrl).stream(
      simpleRequest({ model: "gemma3:4b", tools: [ls] }),
      new AbortController().signal,
    ),
  );
  const last = lastOf(events);
  assert.ok(last.type === "error");
  assert.equal(
    last.error.message,
    'Ollama model "gemma3:4b" does not support tools, which the agent needs',
  );
  assert.match(last.error.hint ?? "", /ollama pull/);
  assert.equal(fake.chatBodies().length, 0);
});

Deno.test("Ollama provider says to pull a model that is not installed, and how to start a server that is down", async () => {
  await using fake = startFakeOllama({ models: [] });
  const missing = lastOf(
    await collect(
      ollama(fake.baseUrl).stream(
        simpleRequest({ model: "qwen3:8b" }),
        new AbortController().signal,
      ),
    ),
  );
  assert.ok(missing.type === "error");
  assert.equal(missing.error.message, 'Ollama has no model "qwen3:8b" installed');
  assert.match(missing.error.hint ?? "", /^Run "ollama pull qwen3:8b"/);
  await fake.close();
  const down = lastOf(
    await collect(
      ollama(fake.baseUrl, { requestMaxRetries: 0 }).stream(
        simpleRequest(),
        new AbortController().signal,
      ),
    ),
  );
  assert.ok(down.type === "error");
  assert.match(down.error.message, /^Cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+\/v1/);
  assert.match(down.error.hint ?? "", /"ollama serve" \(or open the Ollama app\)/);
});

Deno.test("Ollama provider replays the history in Ollama's shapes, checked by the fake's invariants", async () => {
  await using fake = startFakeOllama({
    models: [{ name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] }],
    script: [
      { reply: { thinking: "plan", tool_calls: [{ name: "ls", args: { path: "src" } }] } },
      { expect: { last_tool_result_contains: "main.ts" }, reply: { text: "There is main.ts" } },
    ],
  });
  const provider = ollama(fake.baseUrl);
  const first = simpleRequest({ model: "qwen3:8b", tools: [ls] });
  const done = lastOf(await collect(provider.stream(first, new AbortController().signal)));
  assert.ok(done.type === "done");
  const call = done.blocks.find((b) => b.type === "tool_call")!;
  assert.ok(call.type === "tool_call");
  const second = simpleRequest({
    model: "qwen3:8b",
    tools: [ls],
    messages: [
      ...first.messages,
      { role: "assistant", blocks: done.blocks, stop: done.stop, usage: done.usage },
      {
        role: "tool_result",
        callId: call.id,
        name: "ls",
        blocks: [{ type: "text", text: "main.ts" }],
        isError: false,
      },
    ],
  });
  const answer = lastOf(await collect(provider.stream(second, new AbortController().signal)));
  assert.deepEqual(fake.failures, []);
  assert.ok(answer.type === "done");
  assert.deepEqual(answer.blocks, [{ type: "text", text: "There is main.ts" }]);
  const replayed = (fake.chatBodies()[1].messages as Record<string, unknown>[])[2];
  assert.equal(replayed.thinking, "plan");
});

/** Replies for `serveReplies`: `/api/show` first, then the chat attempts. */
function withShow(...chat: Reply[]): Reply[] {
  const show = {
    model_info: { "general.architecture": "x", "x.context_length": 8192 },
    capabilities: ["completion"],
  };
  return [{ body: JSON.stringify(show) }, ...chat];
}

const ndjson = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l) + "\n").join("");
const okBody = ndjson(
  { message: { role: "assistant", content: "ok" }, done: false },
  { message: { role: "assistant", content: "" }, done: true, done_reason: "stop" },
);

async function streamFrom(replies: Reply[], overrides: Partial<ProviderSettings> = {}) {
  await using server = serveReplies(replies);
  const events = await collect(
    ollama(server.baseUrl, overrides).stream(simpleRequest(), new AbortController().signal),
  );
  return { events, paths: server.requests.map((r) => r.path) };
}

Deno.test("Ollama provider posts to /api/chat at the server root and retries a 500", async () => {
  const { events, paths } = await streamFrom(
    withShow({ status: 500, headers: { "retry-after": "0" }, body: '{"error":"boom"}' }, {
      body: okBody,
    }),
  );
  assert.deepEqual(paths, ["/api/show", "/api/chat", "/api/chat"]);
  const retry = events.find((e) => e.type === "retry");
  assert.ok(retry?.type === "retry");
  assert.match(retry.reason, /HTTP 500: boom/);
  const last = lastOf(events);
  assert.ok(last.type === "done");
  assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
});

Deno.test("Ollama provider reports an error line, a malformed line and an idle stream", async () => {
  const reported = lastOf(
    (await streamFrom(withShow({ body: ndjson({ error: "model crashed" }) }), {
      streamMaxRetries: 0,
    }))
      .events,
  );
  assert.ok(reported.type === "error");
  assert.equal(reported.error.message, "Ollama reported an error: model crashed");
  const malformed = lastOf((await streamFrom(withShow({ body: '{"message":\n' }))).events);
  assert.ok(malformed.type === "error");
  assert.match(malformed.error.message, /^Malformed stream from Ollama/);
  const idle = lastOf(
    (await streamFrom(withShow({ hold: true }), { streamIdleTimeoutMs: 100, streamMaxRetries: 0 }))
      .events,
  );
  assert.ok(idle.type === "error");
  assert.equal(idle.error.message, "Ollama is not answering: no data for 100 ms");
});

Deno.test("Ollama provider names a model that does not fit in memory and does not retry it", async () => {
  const body =
    '{"error":"model requires more system memory (40.0 GiB) than is available (16.0 GiB)"}';
  const { events, paths } = await streamFrom(withShow({ status: 500, body }, { body: okBody }));
  const last = lastOf(events);
  assert.ok(last.type === "error");
  assert.match(last.error.hint ?? "", /smaller model_context_window/);
  assert.equal(paths.length, 2);
});

Deno.test("Ollama provider stops with aborted and keeps the partial text", async () => {
  const partial = ndjson({ message: { role: "assistant", content: "ok" }, done: false });
  await using server = serveReplies(withShow({ body: partial, hold: true }));
  const abort = new AbortController();
  const events: StreamEvent[] = [];
  for await (const event of ollama(server.baseUrl).stream(simpleRequest(), abort.signal)) {
    events.push(event);
    if (event.type === "text_delta") abort.abort();
  }
  const last = lastOf(events);
  assert.ok(last.type === "done");
  assert.equal(last.stop, "aborted");
  assert.deepEqual(last.blocks, [{ type: "text", text: "ok" }]);
});

Deno.test("showModel() reads capabilities, the maximum context, the Modelfile's num_ctx and the KV size", async () => {
  await using fake = startFakeOllama({
    models: [{
      name: "qwen3:8b",
      contextLength: 262_144,
      parameters: "num_ctx 131072\ntemperature 0.6",
    }],
  });
  const model = await showModel(fake.origin, "qwen3:8b");
  assert.deepEqual(model, {
    name: "qwen3:8b",
    capabilities: ["completion", "tools"],
    architecture: "qwen3",
    maxContext: 262_144,
    modelfileContext: 131_072,
    kvBytesPerToken: 36 * 8 * 256 * 2,
    families: ["qwen3"],
  });
  assert.equal(await showModel(fake.origin, "absent:1b"), undefined);
  assert.equal(chooseContextWindow(model).tokens, 131_072, "a larger Modelfile window is kept");
});

Deno.test("chooseContextWindow() takes model_context_window, else 64k, never past the model's maximum", () => {
  const model = { name: "m", maxContext: 40_960 };
  assert.deepEqual(chooseContextWindow({ name: "m", maxContext: 262_144 }), {
    tokens: 65_536,
    source: "agent",
    capped: false,
  });
  assert.deepEqual(chooseContextWindow(model), { tokens: 40_960, source: "agent", capped: true });
  assert.deepEqual(chooseContextWindow(model, 16_384), {
    tokens: 16_384,
    source: "configured",
    capped: false,
  });
  assert.deepEqual(chooseContextWindow(model, 100_000), {
    tokens: 40_960,
    source: "configured",
    capped: true,
  });
  assert.equal(chooseContextWindow(undefined).tokens, 65_536);
});

Deno.test("ollamaHostBaseUrl() reads OLLAMA_HOST as Ollama's client does", () => {
  assert.equal(ollamaHostBaseUrl(undefined), undefined);
  assert.equal(ollamaHostBaseUrl(" "), undefined);
  assert.equal(ollamaHostBaseUrl("0.0.0.0"), "http://127.0.0.1:11434/v1");
  assert.equal(ollamaHostBaseUrl("gpu-box:9000"), "http://gpu-box:9000/v1");
  assert.equal(ollamaHostBaseUrl("http://gpu-box"), "http://gpu-box:80/v1");
  assert.equal(
    ollamaHostBaseUrl("https://ollama.example.com/"),
    "https://ollama.example.com:443/v1",
  );
  assert.equal(ollamaHostBaseUrl("[::1]:11500"), "http://[::1]:11500/v1");
});
