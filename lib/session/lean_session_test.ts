import assert from "node:assert/strict";
import { join } from "node:path";
import { type FakeOllamaModel, startFakeOllama } from "../../tests/fake_ollama/server.ts";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionEvent } from "./open.ts";
import { harnessLabel } from "./status.ts";

/** A git workspace and a config home that uses Ollama model `model` (plus `extra` config). */
async function ollamaWorkspace(model: string, extra = "") {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_lean_" }));
  const cwd = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(cwd);
  await Deno.mkdir(home);
  await new Deno.Command("git", { args: ["init", "-q"], cwd }).output();
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `model_provider = "ollama"\nmodel = "${model}"\n${extra}\n`,
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    OPENINTERPRETER_HOME: home,
    NO_COLOR: "1",
  };
  return { cwd, env, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

/** Opens a session on `model` of a fake Ollama, runs one prompt, and returns the first request. */
async function firstRequest(models: FakeOllamaModel[], model: string, extra = "") {
  await using ollama = startFakeOllama({ models, script: [{ reply: { text: "done" } }] });
  await using ws = await ollamaWorkspace(model, extra);
  const events: SessionEvent[] = [];
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: (event) => events.push(event) },
    { env: { ...ws.env, OLLAMA_HOST: ollama.origin } },
  );
  const outcome = await session.prompt("hi", new AbortController().signal);
  assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  assert.deepEqual(ollama.failures, []);
  const body = ollama.chatBodies()[0];
  const started = events.find((e) => e.type === "session_started");
  return {
    status: session.status(),
    info: started?.type === "session_started" ? started.info : undefined,
    tools: (body.tools as Array<{ function: { name: string } }> ?? []).map((t) => t.function.name),
    system: String((body.messages as Array<{ role: string; content: string }>)[0].content),
    options: body.options as Record<string, unknown>,
  };
}

const SMALL: FakeOllamaModel = {
  name: "qwen3:0.6b",
  contextLength: 8192,
  parameterSize: "0.6B",
};

Deno.test("a 0.6B model with an 8k window on Ollama gets qwen-code's lean surface and a quarter of the window to answer in", async () => {
  const lean = await firstRequest([SMALL], "qwen3:0.6b");
  assert.equal(lean.status.harness, "qwen-code");
  assert.equal(lean.status.surface, "lean: 0.6B parameters, 8,192-token window");
  assert.equal(lean.info?.surface, lean.status.surface, "the banner says so too");
  assert.equal(
    harnessLabel(lean.status),
    "qwen-code (lean: 0.6B parameters, 8,192-token window)",
  );
  assert.deepEqual(lean.tools, ["edit", "read_file", "run_shell_command", "write_file"]);
  assert.deepEqual(lean.options, { num_ctx: 8192, num_predict: 2048 });
  const full = await firstRequest([SMALL], "qwen3:0.6b", "lean = false");
  assert.equal(full.status.surface, undefined);
  assert.equal(full.tools.length, 14, full.tools.join(", "));
  assert.ok(
    lean.system.length * 3 < full.system.length,
    `lean prompt ${lean.system.length} chars, full ${full.system.length}`,
  );
  assert.equal(full.options.num_predict, 2048, "the cap holds for the full surface too");
});

Deno.test("a larger local model keeps the full surface, its output capped at a quarter of the window", async () => {
  const big = { name: "qwen3:8b", contextLength: 40_960, parameterSize: "8.2B" };
  const full = await firstRequest([big], "qwen3:8b");
  assert.equal(full.status.surface, undefined);
  assert.equal(full.tools.length, 14);
  assert.equal(harnessLabel(full.status), "qwen-code");
  assert.deepEqual(full.options, { num_ctx: 40_960, num_predict: 10_240 });
  const forced = await firstRequest([big], "qwen3:8b", "lean = true");
  assert.equal(forced.status.surface, "lean: lean = true");
  assert.equal(forced.tools.length, 4);
});

Deno.test("a model whose name matches no harness gets the harness of the family Ollama reports", async () => {
  const models = [
    { name: "tiny-coder:latest", family: "qwen2", contextLength: 32_768 },
    { name: "other:latest", family: "llama", contextLength: 32_768 },
  ];
  const qwen = await firstRequest(models, "tiny-coder");
  assert.equal(qwen.status.harness, "qwen-code");
  assert.equal(qwen.status.surface, undefined);
  assert.ok(qwen.tools.includes("run_shell_command"));
  const native = await firstRequest(models, "other");
  assert.equal(native.status.harness, "native");
  assert.deepEqual(native.options, { num_ctx: 32_768, num_predict: 8192 }, "native sets no limit");
});

Deno.test("a lean session stays lean when /harness switches to another harness", async () => {
  await using ollama = startFakeOllama({ models: [SMALL], script: [{ reply: { text: "done" } }] });
  await using ws = await ollamaWorkspace("qwen3:0.6b");
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: () => {} },
    { env: { ...ws.env, OLLAMA_HOST: ollama.origin } },
  );
  await session.switchHarness("native");
  assert.equal(
    harnessLabel(session.status()),
    "native (lean: 0.6B parameters, 8,192-token window)",
  );
  await session.prompt("hi", new AbortController().signal);
  assert.deepEqual(ollama.failures, []);
  const tools = ollama.chatBodies()[0].tools as Array<{ function: { name: string } }>;
  assert.deepEqual(tools.map((t) => t.function.name), [
    "exec_command",
    "write_stdin",
    "apply_patch",
  ]);
});

Deno.test("a hosted model's small window does not make a session lean; a local server's does", async () => {
  await using fake = startFakeProvider([]);
  await using ws = await sessionWorkspace(fake.baseUrl, "model_context_window = 8192");
  await using hosted = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: () => {} },
    { env: ws.env },
  );
  assert.equal(hosted.status().contextWindow, 8192);
  assert.equal(hosted.status().surface, undefined);
  assert.equal(hosted.settings.lean, undefined);
  // The control: the same window on a local server is lean (the first test of this file too).
  const local = await firstRequest([{ ...SMALL, parameterSize: "8B" }], "qwen3:0.6b");
  assert.equal(local.status.surface, "lean: 8,192-token window");
});

Deno.test("lean follows /model: off on a hosted model, on again on the small local one", async () => {
  await using fake = startFakeProvider([]);
  await using ollama = startFakeOllama({ models: [SMALL], script: [] });
  await using ws = await ollamaWorkspace(
    "qwen3:0.6b",
    `[model_providers.fake]\nname = "Fake"\nbase_url = "${fake.baseUrl}"\nwire_api = "chat"\n` +
      'env_key = "FAKE_API_KEY"\n',
  );
  await using session = await openSession(
    { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never", ephemeral: true },
    { onEvent: () => {} },
    { env: { ...ws.env, OLLAMA_HOST: ollama.origin, FAKE_API_KEY: "k" } },
  );
  assert.equal(session.settings.lean, "0.6B parameters, 8,192-token window");
  await session.configure({ model: "fake/fake-model" });
  assert.equal(session.settings.lean, undefined);
  assert.equal(session.status().surface, undefined);
  await session.configure({ model: "ollama/qwen3:0.6b" });
  assert.equal(session.settings.lean, "0.6B parameters, 8,192-token window");
  assert.equal(session.status().contextWindow, 8192, "the server's window, not the catalog's");
  await assert.rejects(session.configure({ model: "ollama/missing:1b" }));
  assert.equal(session.settings.model, "qwen3:0.6b", "a model the server lacks is refused");
});
