import assert from "node:assert/strict";
import { startFakeOllama } from "../../tests/fake_ollama/server.ts";
import type { ToolDeclaration } from "../model/message.ts";
import { collect, simpleRequest, testSettings } from "./_testing.ts";
import { openProvider } from "./mod.ts";

/**
 * The ollama provider on the Messages wire. Ollama takes requests without a key; the fake behind
 * its `/v1` wants one, as Anthropic's API does, so these carry one (as a proxied Ollama's would).
 */
const ollamaMessages = (baseUrl: string) =>
  testSettings(baseUrl, "messages", { id: "ollama", name: "Ollama", apiKey: "ollama" });

const SHELL: ToolDeclaration = {
  name: "Bash",
  description: "Runs a command",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};

Deno.test("the ollama provider on the Messages wire posts to /v1/messages, thinking only with a model that can", async () => {
  await using fake = startFakeOllama({
    models: [
      { name: "qwen3-coder:30b", capabilities: ["completion", "tools"] },
      { name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] },
    ],
    script: [{ reply: { text: "one" } }, { reply: { text: "two" } }],
  });
  const provider = await openProvider(ollamaMessages(fake.baseUrl));
  for (const model of ["qwen3-coder:30b", "qwen3:8b"]) {
    const events = await collect(
      provider.stream(simpleRequest({ model, thinking: "budget" }), new AbortController().signal),
    );
    assert.equal(events.at(-1)?.type, "done", JSON.stringify(events.at(-1)));
  }
  assert.deepEqual(fake.v1.failures, []);
  const [plain, thinking] = fake.v1.requests;
  assert.equal(plain.path, "/v1/messages");
  assert.equal(plain.headers["anthropic-version"], "2023-06-01");
  assert.equal(plain.headers["x-api-key"], "ollama");
  assert.equal((plain.body as { thinking?: unknown }).thinking, undefined);
  assert.equal((thinking.body as { thinking?: { type: string } }).thinking?.type, "enabled");
  assert.deepEqual(fake.requests.map((r) => r.path), ["/api/show", "/api/show"]);
  assert.deepEqual(fake.chatBodies(), [], "not the native API");
});

Deno.test("the ollama provider on the Messages wire refuses tools for a model without them, before any request", async () => {
  await using fake = startFakeOllama({
    models: [{ name: "gemma3:4b", capabilities: ["completion"] }],
  });
  const provider = await openProvider(ollamaMessages(fake.baseUrl));
  const events = await collect(provider.stream(
    simpleRequest({ model: "gemma3:4b", tools: [SHELL] }),
    new AbortController().signal,
  ));
  assert.deepEqual(events, [{
    type: "error",
    error: {
      message: 'Ollama model "gemma3:4b" does not support tools, which the agent needs',
      hint: 'Switch to a model whose "ollama show NAME" lists the tools capability, for ' +
        'example "ollama pull gpt-oss:20b"',
      retryable: false,
    },
  }]);
  assert.deepEqual(fake.v1.requests, []);
});

Deno.test("the ollama provider on the Messages wire says how to start Ollama when nothing listens", async () => {
  const fake = startFakeOllama({ models: [] });
  const origin = fake.origin;
  await fake.close();
  const settings = { ...ollamaMessages(`${origin}/v1`), requestMaxRetries: 0 };
  const provider = await openProvider(settings);
  const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  const last = events.at(-1);
  assert.equal(last?.type, "error");
  assert.match(
    last.type === "error" ? last.error.hint ?? "" : "",
    /^Start Ollama with "ollama serve"/,
  );
});

Deno.test("the ollama provider on the Messages wire says an Ollama without /v1/messages needs an update", async () => {
  await using old = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/api/show"
        ? Response.json({ capabilities: ["completion", "tools"] })
        : new Response("404 page not found", { status: 404 }),
  );
  const origin = `http://127.0.0.1:${old.addr.port}`;
  const provider = await openProvider(ollamaMessages(`${origin}/v1`));
  const events = await collect(provider.stream(simpleRequest(), new AbortController().signal));
  const last = events.at(-1);
  assert.ok(last?.type === "error");
  assert.equal(
    last.error.message,
    `Ollama at ${origin} has no Messages API (/v1/messages): it came with Ollama 0.14`,
  );
  assert.match(last.error.hint ?? "", /^Update Ollama, or remove wire_api = "messages"/);
});
