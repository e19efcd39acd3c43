import assert from "node:assert/strict";
import { startFakeLlamaCpp } from "../../../tests/fake_local/llamacpp.ts";
import { startFakeLmStudio } from "../../../tests/fake_local/lmstudio.ts";
import { startFakeVllm } from "../../../tests/fake_local/vllm.ts";
import { startFakeOllama } from "../../../tests/fake_ollama/server.ts";
import { startFakeProvider } from "../../../tests/fake_provider/server.ts";
import {
  findRunning,
  LOCAL_SERVERS,
  localServer,
  type LocalServerId,
  startCommand,
} from "./servers.ts";

const IDS: LocalServerId[] = ["ollama", "lmstudio", "llamacpp", "vllm"];

Deno.test("findRunning() tells each local server from the others at the same address", async () => {
  await using ollama = startFakeOllama({ models: [] });
  await using lmstudio = startFakeLmStudio({ models: [], api: "v0" });
  await using llamacpp = startFakeLlamaCpp({ apiKey: "locked" });
  await using vllm = startFakeVllm({ models: [{ id: "m" }], apiKey: "locked" });
  await using openai = startFakeProvider([]);
  const urls = [ollama.baseUrl, lmstudio.baseUrl, llamacpp.baseUrl, vllm.baseUrl, openai.baseUrl];
  for (const url of urls) {
    const running = await findRunning(IDS.map((id) => ({ id, baseUrl: url })));
    const expected = url === openai.baseUrl ? [] : [IDS[urls.indexOf(url)]];
    assert.deepEqual(running.map((s) => s.id), expected, url);
  }
  const all = await findRunning([
    { id: "vllm", baseUrl: vllm.baseUrl },
    { id: "ollama", baseUrl: `${ollama.origin}/` },
  ]);
  assert.deepEqual(all, [
    { id: "vllm", baseUrl: vllm.baseUrl, name: "vLLM", root: vllm.origin },
    { id: "ollama", baseUrl: `${ollama.origin}/`, name: "Ollama", root: ollama.origin },
  ]);
});

Deno.test("findRunning() asks every server at once, each for a bounded time", async () => {
  const stop = new AbortController();
  const silent = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, signal: stop.signal },
    () => new Promise<Response>(() => {}),
  );
  const baseUrl = `http://127.0.0.1:${silent.addr.port}/v1`;
  const started = performance.now();
  const running = await findRunning(IDS.map((id) => ({ id, baseUrl })), { timeoutMs: 300 });
  const elapsed = performance.now() - started;
  stop.abort();
  await silent.finished.catch(() => {});
  assert.deepEqual(running, []);
  // One probe after another would take 7 × 300 ms.
  assert.ok(elapsed < 1500, `took ${Math.round(elapsed)} ms`);
});

Deno.test("startCommand() names the port the server was looked for on", () => {
  const llama = localServer("llamacpp");
  assert.equal(startCommand(llama, "http://127.0.0.1:8080"), llama.start);
  assert.equal(
    startCommand(llama, "http://127.0.0.1:9090"),
    "llama-server -m MODEL.gguf --port 9090 --jinja -c 65536",
  );
  assert.equal(
    startCommand(localServer("vllm"), "http://gpu:8001"),
    "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser PARSER --max-model-len 65536 " +
      "--port 8001",
  );
  assert.deepEqual(LOCAL_SERVERS.map((s) => [s.id, s.port]), [
    ["ollama", 11434],
    ["lmstudio", 1234],
    ["llamacpp", 8080],
    ["vllm", 8000],
  ]);
});
