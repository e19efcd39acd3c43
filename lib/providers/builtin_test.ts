import assert from "node:assert/strict";
import { BUILTIN_PROVIDERS, builtinProvider } from "./builtin.ts";

Deno.test("BUILTIN_PROVIDERS has unique ids and base URLs without a trailing slash", () => {
  const ids = BUILTIN_PROVIDERS.map((row) => row.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const row of BUILTIN_PROVIDERS) {
    assert.match(row.baseUrl, /^https?:\/\/[^/]+(\/.*[^/])?$/, row.id);
    assert.ok(row.defaultModel, row.id);
    assert.ok(row.wireApis.includes(row.wireApi), `${row.id} serves its own wire API`);
    assert.ok(Object.isFrozen(row.wireApis), row.id);
  }
});

Deno.test("the local servers are keyless built-in providers on their default ports", () => {
  const local = ["ollama", "lmstudio", "llamacpp", "vllm"].map((id) => builtinProvider(id));
  assert.deepEqual(local.map((row) => [row?.baseUrl, row?.envKey]), [
    ["http://localhost:11434/v1", undefined],
    ["http://localhost:1234/v1", undefined],
    ["http://127.0.0.1:8080/v1", undefined],
    ["http://127.0.0.1:8000/v1", undefined],
  ]);
  assert.deepEqual(builtinProvider("llamacpp")?.wireApis, ["chat", "messages"]);
  assert.deepEqual(builtinProvider("vllm")?.wireApis, ["chat", "responses", "messages"]);
  assert.ok(builtinProvider("ollama")?.wireApis.includes("messages"));
});

Deno.test("builtinProvider() returns frozen rows with their wire API and key variable", () => {
  const anthropic = builtinProvider("anthropic");
  assert.equal(anthropic?.wireApi, "messages");
  assert.equal(anthropic?.baseUrl, "https://api.anthropic.com/v1");
  assert.equal(builtinProvider("openai")?.envKey, "OPENAI_API_KEY");
  assert.equal(builtinProvider("deepseek")?.compat.reasoningReplay, "tool_calls");
  assert.equal(builtinProvider("moonshot")?.compat.reasoningReplay, "always");
  assert.equal(builtinProvider("ollama")?.envKey, undefined);
  assert.ok(Object.isFrozen(builtinProvider("moonshot")?.compat));
  assert.equal(builtinProvider("nope"), undefined);
});
