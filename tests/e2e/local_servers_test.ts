import assert from "node:assert/strict";
import { startFakeLlamaCpp } from "../fake_local/llamacpp.ts";
import { fixtureRepo, interpreter } from "./_harness_env.ts";

/** Runs `interpreter exec ARGS` in a fixture repository with a fresh home and `env`. */
async function exec(args: string[], env: Record<string, string>) {
  const repo = await fixtureRepo("habits");
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    return await interpreter(["exec", ...args], { cwd: repo, home, env });
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
}

Deno.test("exec --oss finds the llama.cpp server that runs, uses its model and window, and completes a tool call", async () => {
  await using llama = startFakeLlamaCpp({
    models: ["Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf"],
    nCtx: 32_768,
    script: [
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo from-llama" } }] } },
      { expect: { last_tool_result_contains: "from-llama" }, reply: { text: "finished" } },
    ],
  });
  const result = await exec(["--oss", "--harness", "native", "run the tool"], {
    OPENINTERPRETER_OSS_BASE_URL: llama.baseUrl,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "finished");
  assert.match(result.stderr, /Using llama\.cpp model "Qwen3-Coder-30B-A3B-Instruct-Q4_K_M\.gguf"/);
  assert.match(result.stderr, /32,768-token context window.*"-c 65536"/);
  assert.deepEqual(llama.v1.requests.map((r) => r.path), [
    "/v1/chat/completions",
    "/v1/chat/completions",
  ]);
  assert.deepEqual(llama.v1.failures, []);
});

Deno.test("exec --local-provider vllm says how to start vLLM when nothing listens", async () => {
  const llama = startFakeLlamaCpp();
  const origin = llama.origin;
  await llama.close();
  const result = await exec(["--local-provider", "vllm", "-m", "Qwen/Qwen3-8B", "go"], {
    OPENINTERPRETER_OSS_BASE_URL: `${origin}/v1`,
  });
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`^error: vLLM is not running at ${origin} \\(`, "m"));
  assert.match(
    result.stderr,
    /^hint: Start it with "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser PARSER --max-model-len 65536 --port \d+"/m,
  );
});
