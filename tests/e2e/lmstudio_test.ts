import assert from "node:assert/strict";
import { join } from "node:path";
import { type FakeLmStudioModel, startFakeLmStudio } from "../fake_local/lmstudio.ts";
import { fixtureRepo, interpreter } from "./_harness_env.ts";

const toolTask = [
  { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo from-the-tool" } }] } },
  { expect: { last_tool_result_contains: "from-the-tool" }, reply: { text: "finished" } },
];

/** Runs `interpreter exec --local-provider lmstudio` against the LM Studio at `baseUrl`. */
async function execLmStudio(baseUrl: string, args: string[]) {
  const repo = await fixtureRepo("habits");
  const home = await Deno.makeTempDir({ prefix: "oi-home-" });
  try {
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `[model_providers.lmstudio]\nbase_url = "${baseUrl}"\n`,
    );
    return await interpreter([
      "exec",
      "--local-provider",
      "lmstudio",
      "--harness",
      "native",
      ...args,
    ], {
      cwd: repo,
      home,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
}

function fake(models: FakeLmStudioModel[]) {
  return startFakeLmStudio({ models, script: toolTask });
}

Deno.test("exec --local-provider lmstudio checks the loaded model, warns of a small context and chats over /v1", async () => {
  await using lms = fake([{ key: "qwen/qwen3-8b", loadedContext: 4096, maxContext: 40_960 }]);
  const result = await execLmStudio(lms.baseUrl, ["-m", "qwen/qwen3-8b", "run the tool"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "finished");
  assert.deepEqual(lms.requests.map((r) => r.path), ["/api/v1/models"]);
  assert.deepEqual(lms.v1.requests.map((r) => r.path), [
    "/v1/chat/completions",
    "/v1/chat/completions",
  ]);
  assert.deepEqual(lms.v1.failures, []);
  assert.match(
    result.stderr,
    /LM Studio loaded "qwen\/qwen3-8b" with a 4,096-token context window.*"lms load qwen\/qwen3-8b --context-length 40960"/,
  );
});

Deno.test("exec --local-provider lmstudio without -m uses the loaded model trained for tools", async () => {
  await using lms = fake([
    { key: "google/gemma-3-4b", loadedContext: 65_536, tools: false },
    { key: "qwen/qwen3-8b", loadedContext: 65_536 },
    { key: "openai/gpt-oss-20b" },
  ]);
  const result = await execLmStudio(lms.baseUrl, ["go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /Using LM Studio model "qwen\/qwen3-8b", the first one loaded/);
  assert.doesNotMatch(result.stderr, /context window/);
  const models = lms.v1.requests.map((r) => (r.body as { model: string }).model);
  assert.deepEqual(models, ["qwen/qwen3-8b", "qwen/qwen3-8b"]);
});

Deno.test("exec --local-provider lmstudio says lms load for a downloaded model that is not loaded", async () => {
  await using lms = fake([{ key: "qwen/qwen3-8b", maxContext: 131_072 }]);
  const result = await execLmStudio(lms.baseUrl, ["-m", "qwen/qwen3-8b", "go"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: LM Studio model "qwen\/qwen3-8b" is not loaded$/m);
  assert.match(
    result.stderr,
    /^hint: Load it with "lms load qwen\/qwen3-8b --context-length 65536", then try again$/m,
  );
  assert.deepEqual(lms.v1.requests, []);
});

Deno.test("exec --local-provider lmstudio says lms get for a model it does not have", async () => {
  await using lms = fake([{ key: "qwen/qwen3-8b", loadedContext: 8192 }]);
  const result = await execLmStudio(lms.baseUrl, ["-m", "mistralai/devstral", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^error: LM Studio has no model "mistralai\/devstral"; downloaded: qwen\/qwen3-8b$/m,
  );
  assert.match(result.stderr, /^hint: Download it with "lms get mistralai\/devstral"/m);
});

Deno.test("exec --local-provider lmstudio says lms server start when nothing listens", async () => {
  const lms = fake([]);
  const baseUrl = lms.baseUrl;
  await lms.close();
  const result = await execLmStudio(baseUrl, ["-m", "qwen/qwen3-8b", "go"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^error: LM Studio's server is not running at http:\/\/127\.0\.0\.1:\d+ \(/m,
  );
  assert.match(result.stderr, /^hint: Start it with "lms server start"/m);
});
