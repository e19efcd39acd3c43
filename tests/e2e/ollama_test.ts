import assert from "node:assert/strict";
import { join } from "node:path";
import { type FakeOllamaModel, startFakeOllama } from "../fake_ollama/server.ts";
import { fixtureRepo, interpreter } from "./_harness_env.ts";

const TOOLS = ["completion", "tools"];

/** A task that runs one command through the native harness's exec_command, then answers. */
const toolTask = [
  { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo from-the-tool" } }] } },
  { expect: { last_tool_result_contains: "from-the-tool" }, reply: { text: "finished" } },
];

/** Runs `interpreter exec` with OLLAMA_HOST at the fake and a fresh home holding `config`. */
async function execOss(
  origin: string,
  args: string[],
  config = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const repo = await fixtureRepo("habits");
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    await Deno.writeTextFile(join(home, "config.toml"), config);
    return await interpreter(["exec", ...args], { cwd: repo, home, env: { OLLAMA_HOST: origin } });
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
}

function fake(models: FakeOllamaModel[], script: typeof toolTask = toolTask) {
  return startFakeOllama({ models, script });
}

Deno.test("exec --oss completes a tool call over Ollama's /api/chat with a 64k window, said once on stderr", async () => {
  await using ollama = fake([{ name: "llama3.1:8b", capabilities: TOOLS, contextLength: 131_072 }]);
  const result = await execOss(ollama.origin, ["--oss", "-m", "llama3.1:8b", "run the tool"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "finished");
  assert.deepEqual(ollama.failures, []);
  assert.deepEqual(ollama.v1.requests, [], "nothing went to /v1");
  const bodies = ollama.chatBodies();
  assert.equal(bodies.length, 2);
  for (const body of bodies) {
    assert.equal((body.options as Record<string, unknown>).num_ctx, 65_536);
    assert.equal(body.model, "llama3.1:8b");
  }
  const paths = ollama.requests.map((r) => r.path);
  assert.ok(paths.indexOf("/api/version") < paths.indexOf("/api/chat"), paths.join(" "));
  assert.ok(paths.indexOf("/api/show") < paths.indexOf("/api/chat"), paths.join(" "));
  const notes = result.stderr.match(/Ollama context window for llama3\.1:8b: 65,536 tokens.*$/gm);
  assert.equal(notes?.length, 1, result.stderr);
  assert.match(
    result.stderr,
    /provider: ollama \(ollama \/api\/chat\)/,
    "the banner names the API",
  );
  assert.match(notes![0], /an agent needs at least 65,536.*up to 131,072.*GiB of KV cache/);
});

Deno.test("exec --oss caps the window at the model's maximum and follows model_context_window", async () => {
  await using small = fake([{
    name: "phi4-mini:3.8b",
    capabilities: TOOLS,
    contextLength: 32_768,
  }]);
  const capped = await execOss(small.origin, ["--oss", "-m", "phi4-mini:3.8b", "go"]);
  assert.equal(capped.code, 0, capped.stderr);
  assert.equal((small.chatBodies()[0].options as Record<string, unknown>).num_ctx, 32_768);
  assert.match(capped.stderr, /32,768 tokens \(options\.num_ctx\), because the model's maximum/);
  await using configured = fake([{
    name: "llama3.1:8b",
    capabilities: TOOLS,
    contextLength: 131_072,
  }]);
  const result = await execOss(
    configured.origin,
    ["--local-provider", "ollama", "-m", "llama3.1:8b", "go"],
    "model_context_window = 100000\n",
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal((configured.chatBodies()[0].options as Record<string, unknown>).num_ctx, 100_000);
  assert.match(
    result.stderr,
    /100,000 tokens \(options\.num_ctx\), because model_context_window asks/,
  );
});

Deno.test("exec --oss without -m picks the first installed model with tool support", async () => {
  await using ollama = fake([
    { name: "gemma3:4b", capabilities: ["completion", "vision"] },
    { name: "llama3.1:8b", capabilities: TOOLS, contextLength: 131_072 },
  ]);
  const result = await execOss(ollama.origin, ["--oss", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /Using Ollama model "llama3\.1:8b", the first installed one with tool/,
  );
  assert.deepEqual(ollama.chatBodies().map((b) => b.model), ["llama3.1:8b", "llama3.1:8b"]);
});

Deno.test("exec --oss uses the model configured for ollama before picking one", async () => {
  await using ollama = fake([
    { name: "llama3.1:8b", capabilities: TOOLS },
    { name: "qwen2.5:7b", capabilities: TOOLS },
  ]);
  const config = 'model_provider = "ollama"\nmodel = "qwen2.5:7b"\n';
  const result = await execOss(ollama.origin, ["--oss", "--harness", "native", "go"], config);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(ollama.chatBodies().map((b) => b.model), ["qwen2.5:7b", "qwen2.5:7b"]);
  assert.doesNotMatch(result.stderr, /Using Ollama model/);
});

Deno.test("exec --oss refuses a model without tools before any chat request and names one that has them", async () => {
  await using ollama = fake([
    { name: "gemma3:4b", capabilities: ["completion", "vision"] },
    { name: "llama3.1:8b", capabilities: TOOLS },
  ]);
  const result = await execOss(ollama.origin, ["--oss", "-m", "gemma3:4b", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^error: Ollama model "gemma3:4b" does not support tools, which the agent needs$/m,
  );
  assert.match(
    result.stderr,
    /^hint: Installed models with tool support: llama3\.1:8b; pass -m llama3\.1:8b$/m,
  );
  assert.equal(ollama.chatBodies().length, 0);
});

Deno.test("exec --oss without -m names a model to pull when none can call tools", async () => {
  await using ollama = fake([{ name: "gemma3:4b", capabilities: ["completion"] }]);
  const result = await execOss(ollama.origin, ["--oss", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^error: None of the models installed in Ollama supports tools: gemma3:4b$/m,
  );
  assert.match(result.stderr, /^hint: Run "ollama pull gpt-oss:20b"/m);
  assert.equal(ollama.chatBodies().length, 0);
});

Deno.test("exec --oss says ollama pull for a model that is not installed", async () => {
  await using ollama = fake([{ name: "llama3.1:8b", capabilities: TOOLS }]);
  const result = await execOss(ollama.origin, ["--oss", "-m", "qwen3-coder:30b", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^error: Ollama has no model "qwen3-coder:30b" installed; installed: llama3\.1:8b$/m,
  );
  assert.match(result.stderr, /^hint: Run "ollama pull qwen3-coder:30b"/m);
  assert.equal(ollama.chatBodies().length, 0);
});

Deno.test("exec --oss says how to start Ollama when nothing listens, without retrying", async () => {
  const ollama = fake([]);
  const origin = ollama.origin;
  await ollama.close();
  const result = await execOss(origin, ["--local-provider", "ollama", "-m", "llama3.1:8b", "go"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`^error: Ollama is not running at ${origin} \\(`, "m"));
  assert.match(
    result.stderr,
    /^hint: Start Ollama with "ollama serve" \(or open the Ollama app\)/m,
  );
  assert.doesNotMatch(result.stderr, /Reconnecting/);
});

Deno.test("the ollama provider keeps working over /v1 when wire_api is set, and says the window cannot be set", async () => {
  await using ollama = fake([{ name: "llama3.1:8b", capabilities: TOOLS }]);
  const config = '[model_providers.ollama]\nwire_api = "chat"\n';
  const result = await execOss(ollama.origin, [
    "--local-provider",
    "ollama",
    "-m",
    "llama3.1:8b",
    "go",
  ], config);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "finished");
  assert.equal(ollama.chatBodies().length, 0);
  assert.deepEqual(
    ollama.v1.requests.map((r) => r.path),
    ["/v1/chat/completions", "/v1/chat/completions"],
  );
  assert.deepEqual(ollama.v1.failures, []);
  assert.match(result.stderr, /cannot set the context window.*OLLAMA_CONTEXT_LENGTH=65536/);
});

Deno.test("exec --oss runs a model without tools under a text-protocol harness, which sends none", async () => {
  const submit = "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo 'all done'\n```";
  await using ollama = startFakeOllama({
    models: [{ name: "gemma3:4b", capabilities: ["completion"] }],
    script: [{ reply: { text: `Done.\n\n${submit}` } }],
  });
  const result = await execOss(ollama.origin, [
    "--oss",
    "-m",
    "gemma3:4b",
    "--harness",
    "mini-swe-agent",
    "go",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /all done/);
  assert.deepEqual(ollama.failures, []);
  assert.equal(ollama.chatBodies().length, 1);
  assert.equal("tools" in ollama.chatBodies()[0], false);
});
