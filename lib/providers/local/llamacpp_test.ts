import assert from "node:assert/strict";
import { startFakeLlamaCpp } from "../../../tests/fake_local/llamacpp.ts";
import { testSettings } from "../_testing.ts";
import { servedLlamaCppModels } from "./llamacpp.ts";
import { checkLocalProvider } from "./models.ts";

const llamaAt = (baseUrl: string, apiKey?: string) =>
  testSettings(baseUrl, "chat", { id: "llamacpp", name: "llama.cpp", apiKey });

/** An origin nothing listens on: a server's port, closed again. */
async function closedOrigin(): Promise<string> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(),
  );
  await server.shutdown();
  return `http://127.0.0.1:${server.addr.port}`;
}

Deno.test("the llama.cpp check uses the served model without -m and a slot's context as the window", async () => {
  for (const props of ["nested", "top"] as const) {
    await using fake = startFakeLlamaCpp({ models: ["qwen3-coder-30b"], nCtx: 32_768, props });
    const setup = await checkLocalProvider(llamaAt(fake.baseUrl), { model: "x", chosen: false });
    assert.equal(setup?.model, "qwen3-coder-30b", props);
    assert.deepEqual(setup?.parameters, { count: 20_914_757_184, text: "20.9B" });
    assert.equal(setup?.contextWindow, 32_768, props);
    assert.equal(
      setup?.notes[0],
      'Using llama.cpp model "qwen3-coder-30b", the one llama-server serves (-m names another)',
    );
    assert.match(setup?.notes[1] ?? "", /32,768-token context window.*restart it with "-c 65536"$/);
    assert.deepEqual(fake.requests.map((r) => r.path).sort(), ["/props", "/v1/models"]);
  }
});

Deno.test("the llama.cpp check keeps a chosen name for one model, names the slots, and never exceeds the server's window", async () => {
  await using fake = startFakeLlamaCpp({ nCtx: 16_384, slots: 4 });
  const setup = await checkLocalProvider(llamaAt(fake.baseUrl), {
    model: "qwen3-coder",
    chosen: true,
    contextWindow: 100_000,
  });
  assert.equal(setup?.model, "qwen3-coder", "one served model answers to any name");
  assert.equal(setup?.contextWindow, 16_384);
  assert.match(
    setup?.notes[0] ?? "",
    /"-c 65536" and "-np 1" \(its 4 slots share the -c tokens\)$/,
  );
  await using roomy = startFakeLlamaCpp({ nCtx: 131_072 });
  const smaller = await checkLocalProvider(llamaAt(roomy.baseUrl), {
    model: "m",
    chosen: true,
    contextWindow: 50_000,
  });
  assert.equal(smaller?.contextWindow, 50_000);
  assert.deepEqual(smaller?.notes, []);
});

Deno.test("the llama.cpp check refuses a name a router does not serve and reads a model's own context", async () => {
  await using router = startFakeLlamaCpp({
    models: ["qwen3-8b", "gemma-3-4b"],
    modelContexts: { "gemma-3-4b": 8192 },
    params: 596_049_920,
  });
  await assert.rejects(
    checkLocalProvider(llamaAt(router.baseUrl), { model: "llama3", chosen: true })!,
    {
      message: `llama.cpp's server at ${router.origin} has no model "llama3"; it serves: ` +
        "qwen3-8b, gemma-3-4b",
      hint: "Pick one of them with -m, for example -m qwen3-8b",
    },
  );
  const gemma = await checkLocalProvider(llamaAt(router.baseUrl), {
    model: "gemma-3-4b",
    chosen: true,
  });
  assert.equal(gemma?.contextWindow, 8192);
  assert.deepEqual(gemma?.parameters, { count: 596_049_920, text: "0.6B" }, "for the lean surface");
});

Deno.test("the llama.cpp check says how to start llama-server on its port, and names a loading or locked server", async () => {
  const origin = await closedOrigin();
  const port = new URL(origin).port;
  await assert.rejects(
    checkLocalProvider(llamaAt(`${origin}/v1`), { model: "m", chosen: true })!,
    {
      message: new RegExp(`^llama\\.cpp's server is not running at ${origin} \\(`),
      hint: `Start it with "llama-server -m MODEL.gguf --port ${port} --jinja -c 65536" ` +
        "(--jinja is needed for tool calls), then try again; if it runs elsewhere, set base_url " +
        "in [model_providers.llamacpp]",
    },
  );
  await using loading = startFakeLlamaCpp({ loading: true });
  await assert.rejects(
    checkLocalProvider(llamaAt(loading.baseUrl), { model: "m", chosen: true })!,
    { message: `llama.cpp's server at ${loading.origin} is not ready: Loading model` },
  );
  await using locked = startFakeLlamaCpp({ apiKey: "k1", nCtx: 40_960 });
  const unkeyed = await checkLocalProvider(llamaAt(locked.baseUrl), { model: "m", chosen: true });
  assert.equal(unkeyed?.contextWindow, undefined, "/props is not public");
  const keyed = await checkLocalProvider(llamaAt(locked.baseUrl, "k1"), {
    model: "m",
    chosen: true,
  });
  assert.equal(keyed?.contextWindow, 40_960);
});

Deno.test("/model's live list for llama.cpp is what it serves, with a slot's context", async () => {
  await using fake = startFakeLlamaCpp({ nCtx: 65_536 });
  const signal = new AbortController().signal;
  assert.deepEqual(await servedLlamaCppModels(llamaAt(fake.baseUrl), signal), [
    { id: "ggml-org/gpt-oss-20b-GGUF", context: 65_536 },
  ]);
  const other = testSettings(fake.baseUrl, "chat", { id: "vllm", apiKey: undefined });
  assert.equal(await servedLlamaCppModels(other, signal), undefined);
  await assert.rejects(
    servedLlamaCppModels(llamaAt(`${await closedOrigin()}/v1`), signal),
    /llama\.cpp's server is not running/,
  );
});
