import assert from "node:assert/strict";
import { loadCatalog } from "../providers/catalog.ts";
import type { Usage } from "../model/message.ts";
import { CostMeter, modelPrice, usageCost } from "./cost.ts";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession } from "./open.ts";

const usage = (input: number, output: number, cached = 0): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: cached,
  reasoningTokens: 0,
});

const GPT_41 = { input: 2, output: 8, cacheRead: 0.5 };

Deno.test("modelPrice() reads the catalog's prices, cached input at the input price if unlisted", async () => {
  const catalog = await loadCatalog();
  const openai = { id: "openai", baseUrl: "https://api.openai.com/v1" };
  assert.deepEqual(modelPrice(catalog, openai, "gpt-4.1"), GPT_41);
  // The fake provider is not in the catalog: the same id at another provider has the prices.
  const local = { id: "fake", baseUrl: "http://127.0.0.1:9/v1" };
  assert.deepEqual(modelPrice(catalog, local, "gpt-4.1"), GPT_41);
  assert.equal(modelPrice(catalog, local, "fake-model"), undefined);
  const synthetic = {
    source: "test",
    providers: [{
      id: "p",
      name: "P",
      env: [],
      models: [{
        id: "m",
        name: "M",
        reasoning: false,
        tool_call: true,
        cost: { input: 3, output: 6 },
      }],
    }],
  };
  assert.deepEqual(modelPrice(synthetic, { id: "p", baseUrl: "" }, "m"), {
    input: 3,
    output: 6,
    cacheRead: 3,
  });
});

Deno.test("usageCost() charges cached input at the cache price and the rest at the input price", () => {
  // 5000 fresh × $2 + 2000 cached × $0.5 + 500 out × $8, per million.
  assert.equal(usageCost(usage(7000, 500, 2000), GPT_41), 0.015);
});

Deno.test("CostMeter charges each model's tokens at its own prices", () => {
  const meter = new CostMeter();
  const total = usage(0, 0);
  meter.charge(total, GPT_41);
  assert.equal(meter.usd, 0, "a priced model with nothing used yet costs $0");
  Object.assign(total, usage(1_000_000, 0));
  meter.charge(total, GPT_41);
  meter.charge(total, GPT_41);
  assert.equal(meter.usd, 2, "the same usage is charged once");
  Object.assign(total, usage(1_000_000, 1_000_000));
  meter.charge(total, { input: 1, output: 4, cacheRead: 1 });
  assert.equal(meter.usd, 6, "the output came from the second model");
});

Deno.test("CostMeter has no cost once tokens were used at a model without prices", () => {
  const meter = new CostMeter();
  meter.charge(usage(0, 0), undefined);
  assert.equal(meter.usd, undefined, "nothing used, no prices: unknown");
  meter.charge(usage(10, 10), GPT_41);
  assert.notEqual(meter.usd, undefined);
  meter.charge(usage(20, 20), undefined);
  assert.equal(meter.usd, undefined);
  meter.charge(usage(30, 30), GPT_41);
  assert.equal(meter.usd, undefined, "a part stays unpriced");
});

Deno.test("a session's status adds each model's part of the cost at that model's prices", async () => {
  await using fake = startFakeProvider([
    {
      reply: {
        text: "one",
        usage: { input_tokens: 7000, output_tokens: 500, cached_tokens: 2000 },
      },
    },
    { reply: { text: "two", usage: { input_tokens: 10_000, output_tokens: 1000 } } },
    { reply: { text: "three", usage: { input_tokens: 10, output_tokens: 10 } } },
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl);
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: () => {} },
    { env: ws.env },
  );
  assert.equal(session.status().cost, undefined, "fake-model has no prices");
  await session.switchModel("gpt-4.1");
  assert.equal(session.status().cost, 0);
  await session.prompt("first", new AbortController().signal);
  assert.deepEqual(session.status().tokens, { input: 7000, output: 500, cached: 2000 });
  assert.equal(session.status().cost, 0.015);
  await session.switchModel("gpt-4.1-mini");
  await session.prompt("second", new AbortController().signal);
  // 10000 × $0.4 + 1000 × $1.6, per million, added to the first model's $0.015.
  assert.equal(session.status().cost!.toFixed(6), "0.020600");
  await session.switchModel("fake-model");
  await session.prompt("third", new AbortController().signal);
  assert.deepEqual(fake.failures, []);
  assert.equal(session.status().cost, undefined, "a part at a model without prices");
});

Deno.test("a model on a local server has no price, even when a hosted copy of it has one", async () => {
  const catalog = await loadCatalog();
  const priced = catalog.providers.flatMap((p) => p.models).find((m) => m.cost?.input);
  assert.ok(priced, "the catalog has a priced model");
  const hosted = modelPrice(catalog, { id: "openrouter", baseUrl: "https://x" }, priced.id);
  assert.ok(hosted);
  for (const id of ["ollama", "lmstudio", "llamacpp", "vllm"]) {
    assert.equal(modelPrice(catalog, { id, baseUrl: "http://127.0.0.1:1" }, priced.id), undefined);
  }
});
