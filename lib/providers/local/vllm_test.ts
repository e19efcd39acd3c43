import assert from "node:assert/strict";
import { startFakeVllm } from "../../../tests/fake_local/vllm.ts";
import { testSettings } from "../_testing.ts";
import { checkLocalProvider } from "./models.ts";
import { servedVllmModels } from "./vllm.ts";

const vllmAt = (baseUrl: string, apiKey?: string) =>
  testSettings(baseUrl, "chat", { id: "vllm", name: "vLLM", apiKey });

/** An origin nothing listens on: a server's port, closed again. */
async function closedOrigin(): Promise<string> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(),
  );
  await server.shutdown();
  return `http://127.0.0.1:${server.addr.port}`;
}

const SERVED = [
  { id: "Qwen/Qwen3-Coder-30B-A3B-Instruct", maxModelLen: 32_768 },
  { id: "sql-lora", parent: "Qwen/Qwen3-Coder-30B-A3B-Instruct", maxModelLen: 32_768 },
];

Deno.test("the vLLM check uses the served base model without -m, with its max_model_len as the window", async () => {
  await using fake = startFakeVllm({ models: [...SERVED].reverse() });
  const setup = await checkLocalProvider(vllmAt(fake.baseUrl), { model: "x", chosen: false });
  assert.equal(
    setup?.model,
    "Qwen/Qwen3-Coder-30B-A3B-Instruct",
    "the base model, not the adapter",
  );
  assert.equal(setup?.contextWindow, 32_768);
  assert.equal(
    setup?.notes[0],
    'Using vLLM model "Qwen/Qwen3-Coder-30B-A3B-Instruct", the one it serves (-m chooses another)',
  );
  assert.match(
    setup?.notes[1] ?? "",
    /32,768-token context window \(--max-model-len\).*"--max-model-len 65536"/,
  );
  assert.deepEqual(fake.requests.map((r) => r.path), ["/v1/models"]);
});

Deno.test("the vLLM check takes a served adapter by name and caps model_context_window at max_model_len", async () => {
  await using fake = startFakeVllm({ models: [{ id: "big", maxModelLen: 131_072 }, SERVED[1]] });
  const adapter = await checkLocalProvider(vllmAt(fake.baseUrl), {
    model: "sql-lora",
    chosen: true,
    contextWindow: 200_000,
  });
  assert.equal(adapter?.model, "sql-lora");
  assert.equal(adapter?.contextWindow, 32_768);
  const big = await checkLocalProvider(vllmAt(fake.baseUrl), {
    model: "big",
    chosen: true,
    contextWindow: 100_000,
  });
  assert.equal(big?.contextWindow, 100_000);
  assert.deepEqual(big?.notes, []);
});

Deno.test("the vLLM check refuses a model it does not serve, naming what it serves", async () => {
  await using fake = startFakeVllm({ models: SERVED });
  await assert.rejects(
    checkLocalProvider(vllmAt(fake.baseUrl), { model: "openai/gpt-oss-20b", chosen: true })!,
    {
      message: `vLLM at ${fake.origin} does not serve "openai/gpt-oss-20b"; it serves: ` +
        "Qwen/Qwen3-Coder-30B-A3B-Instruct, sql-lora",
      hint: new RegExp(
        '^Pass -m Qwen/Qwen3-Coder-30B-A3B-Instruct, or restart vLLM with "vllm serve ' +
          "openai/gpt-oss-20b --enable-auto-tool-choice --tool-call-parser PARSER " +
          `--max-model-len 65536 --port ${new URL(fake.origin).port}"$`,
      ),
    },
  );
});

Deno.test("the vLLM check says how to start vLLM, and which key a locked one needs", async () => {
  const origin = await closedOrigin();
  await assert.rejects(checkLocalProvider(vllmAt(`${origin}/v1`), { model: "m", chosen: true })!, {
    message: new RegExp(`^vLLM is not running at ${origin} \\(`),
    hint:
      /^Start it with "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser PARSER --max-model-len 65536 --port \d+" \(PARSER for the model's family: hermes, qwen3_coder/,
  });
  await using locked = startFakeVllm({ models: SERVED, apiKey: "k1" });
  await assert.rejects(checkLocalProvider(vllmAt(locked.baseUrl), { model: "m", chosen: true })!, {
    message: `vLLM at ${locked.origin} asks for an API key (HTTP 401)`,
    hint: /env_key = "VLLM_API_KEY" in \[model_providers\.vllm\]/,
  });
  const keyed = await checkLocalProvider(vllmAt(locked.baseUrl, "k1"), {
    model: "sql-lora",
    chosen: true,
  });
  assert.equal(keyed?.model, "sql-lora");
});

Deno.test("/model's live list for vLLM is what it serves, with max_model_len", async () => {
  await using fake = startFakeVllm({ models: SERVED });
  const signal = new AbortController().signal;
  assert.deepEqual(await servedVllmModels(vllmAt(fake.baseUrl), signal), [
    { id: "Qwen/Qwen3-Coder-30B-A3B-Instruct", context: 32_768 },
    { id: "sql-lora", context: 32_768 },
  ]);
  const other = testSettings(fake.baseUrl, "chat", { id: "llamacpp", apiKey: undefined });
  assert.equal(await servedVllmModels(other, signal), undefined);
});
