import assert from "node:assert/strict";
import { startFakeLlamaCpp } from "../../tests/fake_local/llamacpp.ts";
import { startFakeVllm } from "../../tests/fake_local/vllm.ts";
import { startFakeOllama } from "../../tests/fake_ollama/server.ts";
import { UserError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { type FlagOverrides, loadConfig } from "./load.ts";
import { askLocalServer, type LocalServerChooser, type RunningServer } from "./oss.ts";

/** An origin nothing listens on: a server's port, closed again. */
async function closedOrigin(): Promise<string> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(),
  );
  await server.shutdown();
  return `http://127.0.0.1:${server.addr.port}`;
}

/**
 * Loads config with `flags` in a fresh home, each local provider's base_url at `urls` (by id) or
 * at a closed port, and the terminal question answered by `choose`.
 */
async function loadWith(
  flags: FlagOverrides,
  urls: Record<string, string>,
  opts: { choose?: LocalServerChooser; toml?: string; env?: Record<string, string> } = {},
) {
  await using t = await tempTree({ "home/config.toml": opts.toml ?? "" });
  const closed = `${await closedOrigin()}/v1`;
  const overrides = ["ollama", "lmstudio", "llamacpp", "vllm"].map((id) =>
    `model_providers.${id}.base_url="${urls[id] ?? closed}"`
  );
  return await loadConfig({
    cwd: t.repo,
    env: { ...t.env, ...opts.env },
    flags,
    overrides,
    chooseLocalServer: opts.choose ?? (() => Promise.resolve(undefined)),
  });
}

Deno.test("--oss uses the one local server that runs, and its served model decides later", async () => {
  await using llama = startFakeLlamaCpp();
  const config = await loadWith({ oss: true }, { llamacpp: llama.baseUrl });
  assert.equal(config.values.model_provider, "llamacpp");
  assert.deepEqual(config.origin("model_provider"), { kind: "flag", name: "--oss" });
  assert.deepEqual(config.origin("model"), { kind: "flag", name: "--oss" });
  assert.deepEqual(config.warnings, []);
  assert.ok(llama.requests.some((r) => r.path === "/props"));
});

Deno.test("--oss asks which of several servers to use, and without an answer takes the first and says so", async () => {
  await using ollama = startFakeOllama({ models: [] });
  await using vllm = startFakeVllm({ models: [{ id: "m" }] });
  const urls = { vllm: vllm.baseUrl, ollama: ollama.baseUrl };
  const offered: RunningServer[][] = [];
  const picked = await loadWith({ oss: true }, urls, {
    choose: (running) => {
      offered.push(running);
      return Promise.resolve(running[1]);
    },
  });
  assert.equal(picked.values.model_provider, "vllm");
  assert.deepEqual(offered[0].map((s) => [s.id, s.name, s.root]), [
    ["ollama", "Ollama", ollama.origin],
    ["vllm", "vLLM", vllm.origin],
  ]);
  const first = await loadWith({ oss: true }, urls);
  assert.equal(first.values.model_provider, "ollama");
  assert.deepEqual(first.warnings, [
    `--oss found 2 local model servers running (Ollama at ${ollama.origin}, vLLM at ` +
    `${vllm.origin}); using Ollama, the first in the order Ollama, LM Studio, llama.cpp, vLLM. ` +
    "Pass --local-provider vllm (or set oss_provider) to use another",
  ]);
});

Deno.test("--oss with no local server running names each place it looked and each start command", async () => {
  await assert.rejects(loadWith({ oss: true }, {}), (error: unknown) => {
    assert.ok(error instanceof UserError);
    assert.equal(error.exitCode, 1);
    assert.match(
      error.message,
      /^--oss found no local model server running: looked for Ollama at http:\/\/127\.0\.0\.1:\d+, LM Studio at .*, llama\.cpp at .*, vLLM at http:\/\/127\.0\.0\.1:\d+$/,
    );
    assert.equal(
      error.hint,
      'Start one ("ollama serve", "lms server start", "llama-server -m MODEL.gguf --port 8080 ' +
        '--jinja -c 65536" or "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser ' +
        'PARSER --max-model-len 65536"), or pass --local-provider to name the one you run elsewhere',
    );
    return true;
  });
});

Deno.test("--oss looks where OPENINTERPRETER_OSS_BASE_URL points, and not at all once a provider is chosen", async () => {
  await using llama = startFakeLlamaCpp();
  const moved = await loadWith({ oss: true }, {}, {
    env: { OPENINTERPRETER_OSS_BASE_URL: llama.baseUrl },
  });
  assert.equal(moved.values.model_provider, "llamacpp");
  const probes = llama.requests.length;
  const urls = { llamacpp: llama.baseUrl };
  const configured = await loadWith({ oss: true }, urls, { toml: 'oss_provider = "vllm"\n' });
  assert.equal(configured.values.model_provider, "vllm");
  const flagged = await loadWith({ oss: true, model_provider: "llamacpp" }, urls, {
    toml: 'oss_provider = "vllm"\n',
  });
  assert.equal(flagged.values.model_provider, "llamacpp", "the flag over the config");
  const kept = await loadWith({ oss: true, model_provider: "lmstudio" }, urls);
  assert.equal(kept.values.model_provider, "lmstudio");
  await assert.rejects(loadWith({ oss: true, model_provider: "deepseek" }, urls), {
    message: 'Cannot use --oss with provider "deepseek": --oss selects a local provider',
  });
  assert.equal(llama.requests.length, probes, "no server was asked");
});

Deno.test("askLocalServer() takes a number, a name or Enter, and asks again after a wrong answer", async () => {
  const running: RunningServer[] = [
    { id: "ollama", name: "Ollama", baseUrl: "http://a/v1", root: "http://a" },
    { id: "llamacpp", name: "llama.cpp", baseUrl: "http://b/v1", root: "http://b" },
  ];
  const ask = async (answers: (string | null)[]) => {
    let written = "";
    const picked = await askLocalServer(running, {
      write: (text) => Promise.resolve(void (written += text)),
      readLine: () => Promise.resolve(answers.length ? answers.shift()! : null),
    });
    return { picked: picked?.id, written };
  };
  const second = await ask(["2\n"]);
  assert.equal(second.picked, "llamacpp");
  assert.equal(
    second.written,
    "Several local model servers are running:\n  1) Ollama at http://a\n  2) llama.cpp at " +
      "http://b\nUse which one for --oss? [1] ",
  );
  assert.equal((await ask(["\n"])).picked, "ollama");
  const retried = await ask(["3\n", "LLaMA.cpp\n"]);
  assert.equal(retried.picked, "llamacpp");
  assert.match(retried.written, /Type a number from 1 to 2: $/);
  assert.equal((await ask([null])).picked, undefined);
});
