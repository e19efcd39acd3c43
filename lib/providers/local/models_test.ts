import assert from "node:assert/strict";
import { startFakeLmStudio } from "../../../tests/fake_local/lmstudio.ts";
import { startFakeOllama } from "../../../tests/fake_ollama/server.ts";
import { testSettings } from "../_testing.ts";
import { loadedLmStudioModels } from "./lmstudio.ts";
import { checkLocalProvider } from "./models.ts";

const ollamaAt = (baseUrl: string, native = true) =>
  testSettings(baseUrl, "chat", {
    id: "ollama",
    name: "Ollama",
    apiKey: undefined,
    ...(native ? { nativeApi: "ollama" as const } : {}),
  });
const lmStudioAt = (baseUrl: string) =>
  testSettings(baseUrl, "chat", { id: "lmstudio", name: "LM Studio", apiKey: undefined });

Deno.test("checkLocalProvider() leaves hosted providers alone", () => {
  assert.equal(
    checkLocalProvider(testSettings("http://h/v1", "chat"), { model: "m", chosen: true }),
    undefined,
  );
});

Deno.test("the Ollama check trusts a server that does not report capabilities, and warns of an old version", async () => {
  await using fake = startFakeOllama({
    models: [{ name: "llama3:8b", capabilities: null, contextLength: 8192 }],
    version: "0.5.7",
  });
  const setup = await checkLocalProvider(ollamaAt(fake.baseUrl), {
    model: "llama3:8b",
    chosen: true,
  });
  assert.equal(setup?.toolsProblem, undefined);
  assert.equal(setup?.contextWindow, 8192);
  assert.match(setup?.notes[0] ?? "", /^Ollama 0\.5\.7 is older than 0\.9\.0/);
  assert.match(
    setup?.notes[1] ?? "",
    /8,192 tokens \(options\.num_ctx\), because the model's maximum/,
  );
});

Deno.test("the Ollama check keeps a tools problem for later, since a text-protocol harness needs none", async () => {
  await using fake = startFakeOllama({
    models: [{ name: "gemma3:4b", capabilities: ["completion"] }, { name: "qwen3:8b" }],
  });
  const setup = await checkLocalProvider(ollamaAt(fake.baseUrl), {
    model: "gemma3:4b",
    chosen: true,
  });
  assert.equal(
    setup?.toolsProblem?.message,
    'Ollama model "gemma3:4b" does not support tools, which the agent needs',
  );
  assert.equal(
    setup?.toolsProblem?.hint,
    "Installed models with tool support: qwen3:8b; pass -m qwen3:8b",
  );
});

Deno.test("the Ollama check names an empty server's fix and a server that is not Ollama", async () => {
  await using empty = startFakeOllama({ models: [] });
  await assert.rejects(
    checkLocalProvider(ollamaAt(empty.baseUrl), { model: "gpt-oss:20b", chosen: false })!,
    {
      message: `No model is installed in Ollama at ${empty.origin}`,
      hint: /ollama pull gpt-oss:20b/,
    },
  );
  await using lms = startFakeLmStudio({ models: [] });
  await assert.rejects(checkLocalProvider(ollamaAt(lms.baseUrl), { model: "m", chosen: true })!, {
    message: /does not answer like Ollama: .*\/api\/version: HTTP 404/,
    hint: /OLLAMA_HOST/,
  });
});

Deno.test("the LM Studio check falls back to /api/v0, takes the loaded context as the window and warns of tool training", async () => {
  await using lms = startFakeLmStudio({
    api: "v0",
    models: [
      { key: "google/gemma-3-4b", loadedContext: 32_768, tools: false },
      { key: "qwen/qwen3-8b", loadedContext: 65_536, tools: true },
      { key: "nomic-embed", type: "embedding", loadedContext: 2048 },
    ],
  });
  const setup = await checkLocalProvider(lmStudioAt(lms.baseUrl), {
    model: "google/gemma-3-4b",
    chosen: true,
    contextWindow: 100_000,
  });
  assert.deepEqual(lms.requests.map((r) => r.path), ["/api/v1/models", "/api/v0/models"]);
  assert.equal(setup?.model, "google/gemma-3-4b");
  assert.equal(setup?.contextWindow, 32_768, "never more than it was loaded with");
  assert.equal(setup?.notes.length, 2);
  assert.match(setup!.notes[0], /with a 32,768-token context window/);
  assert.equal(
    setup!.notes[1],
    'LM Studio says "google/gemma-3-4b" was not trained for tool use, so its tool calls may fail; ' +
      "loaded models that were: qwen/qwen3-8b",
  );
});

Deno.test("the LM Studio check names the model to load when none is", async () => {
  await using lms = startFakeLmStudio({ models: [{ key: "qwen/qwen3-8b", maxContext: 32_768 }] });
  await assert.rejects(
    checkLocalProvider(lmStudioAt(lms.baseUrl), { model: "x", chosen: false })!,
    {
      message: "No model is loaded in LM Studio",
      hint:
        'Load one with "lms load qwen/qwen3-8b --context-length 32768" (downloaded: qwen/qwen3-8b), or pass -m NAME',
    },
  );
});

Deno.test("/model's live list for LM Studio is its loaded models with their context lengths", async () => {
  for (const api of ["v1", "v0"] as const) {
    await using fake = startFakeLmStudio({
      api,
      models: [
        { key: "qwen/qwen3-8b", loadedContext: 32_768 },
        { key: "openai/gpt-oss-20b" },
        { key: "nomic-embed", loadedContext: 2048, type: "embedding" },
      ],
    });
    const signal = new AbortController().signal;
    assert.deepEqual(await loadedLmStudioModels(lmStudioAt(fake.baseUrl), signal), [
      { id: "qwen/qwen3-8b", context: 32_768 },
    ], api);
    const other = testSettings(fake.baseUrl, "chat", { id: "ollama", apiKey: undefined });
    assert.equal(await loadedLmStudioModels(other, signal), undefined);
  }
});
