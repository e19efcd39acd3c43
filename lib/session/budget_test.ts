import assert from "node:assert/strict";
import type { ConfigValues } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import { loadCatalog } from "../providers/catalog.ts";
import { raiseLimit, requirePrice } from "./budget.ts";
import { CostMeter, modelPrice } from "./cost.ts";

const OPENAI = { id: "openai", baseUrl: "https://api.openai.com/v1" };
const OLLAMA = { id: "ollama", baseUrl: "http://127.0.0.1:11434/v1" };
const CUSTOM = { id: "mine", baseUrl: "https://llm.example.com/v1" };

Deno.test("[model_prices] wins over the catalog and prices any model, cached input optional", async () => {
  const catalog = await loadCatalog();
  const prices = {
    "gpt-4.1": { input: 1, output: 2, cached_input: 0.1 },
    "My-Model": { input: 3, output: 4 },
  };
  assert.deepEqual(modelPrice(catalog, OPENAI, "gpt-4.1", { prices }), {
    input: 1,
    output: 2,
    cacheRead: 0.1,
  });
  assert.deepEqual(modelPrice(catalog, CUSTOM, "my-model", { prices }), {
    input: 3,
    output: 4,
    cacheRead: 3,
  });
  assert.deepEqual(modelPrice(catalog, OLLAMA, "my-model", { prices })?.input, 3);
  assert.equal(modelPrice(catalog, CUSTOM, "unpriced-model", { prices }), undefined);
});

Deno.test("a local server's model costs $0 under a budget and stays unpriced without one", async () => {
  const catalog = await loadCatalog();
  assert.equal(modelPrice(catalog, OLLAMA, "gpt-4.1"), undefined);
  assert.deepEqual(modelPrice(catalog, OLLAMA, "gpt-4.1", { budget: true }), {
    input: 0,
    output: 0,
    cacheRead: 0,
  });
});

Deno.test("requirePrice() refuses a hosted model without a price only when a budget is set", async () => {
  const catalog = await loadCatalog();
  const budget = { max_budget_usd: 2 } as ConfigValues;
  requirePrice(catalog, {} as ConfigValues, CUSTOM, "unpriced-model");
  requirePrice(catalog, budget, OLLAMA, "llama3");
  requirePrice(catalog, budget, OPENAI, "gpt-4.1");
  requirePrice(
    catalog,
    { ...budget, model_prices: { "unpriced-model": { input: 1, output: 1 } } },
    CUSTOM,
    "unpriced-model",
  );
  assert.throws(
    () => requirePrice(catalog, budget, CUSTOM, "unpriced-model"),
    (error: UserError) => {
      assert.match(
        error.message,
        /max_budget_usd = 2: unpriced-model \(provider mine\) has no price/,
      );
      assert.match(error.hint ?? "", /\[model_prices\."unpriced-model"\]/);
      return true;
    },
  );
});

Deno.test("CostMeter.stopAt() ends the turn once the cost reaches the limit", () => {
  const meter = new CostMeter();
  const price = { input: 2, output: 8, cacheRead: 0.5 };
  assert.equal(meter.stopAt(0.3), undefined);
  meter.charge(
    { inputTokens: 100_000, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    price,
  );
  assert.equal(meter.stopAt(0.3), undefined);
  assert.equal(meter.stopAt(undefined), undefined);
  meter.charge(
    { inputTokens: 200_000, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    price,
  );
  assert.deepEqual(meter.stopAt(0.3), { status: "budget_limit", limit: 0.3, spent: 0.4 });
});

Deno.test("raiseLimit() sets the limit the next turn and request read", () => {
  const values = { max_turn_steps: 2 } as ConfigValues;
  raiseLimit(values, "max_turn_steps", 6);
  raiseLimit(values, "max_budget_usd", 1.5);
  assert.equal(values.max_turn_steps, 6);
  assert.equal(values.max_budget_usd, 1.5);
});
