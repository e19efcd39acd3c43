import assert from "node:assert/strict";
import { loadCatalog } from "../providers/catalog.ts";
import { limitsOf } from "./session_parts.ts";

Deno.test("limitsOf() caps a local model's output at a quarter of its window, and only a local one", async () => {
  const catalog = await loadCatalog();
  const at = { baseUrl: "http://127.0.0.1:1/v1" };
  for (const id of ["ollama", "lmstudio", "llamacpp", "vllm"]) {
    const limits = limitsOf(catalog, {} as never, { id, ...at }, "some-local-model", 40_960);
    assert.equal(limits.contextWindow, 40_960);
    assert.equal(limits.maxOutput, 10_240, id);
  }
  const hosted = limitsOf(catalog, {} as never, { id: "custom", ...at }, "some-model", 40_960);
  assert.notEqual(hosted.maxOutput, 10_240);
});

Deno.test("limitsOf() compacts at model_auto_compact_token_limit, held to 90% of the window", async () => {
  const catalog = await loadCatalog();
  const at = { id: "custom", baseUrl: "http://127.0.0.1:1/v1" };
  const limit = (n?: number) =>
    limitsOf(catalog, { model_auto_compact_token_limit: n } as never, at, "m", 8192).compactAt;
  assert.equal(limit(6000), 6000);
  assert.equal(limit(), Math.floor(8192 * 0.85));
  assert.equal(limit(20_000), Math.floor(8192 * 0.9));
});
