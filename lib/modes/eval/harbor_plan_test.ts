import assert from "node:assert/strict";
import { join } from "node:path";
import { checkHarborArgs, harborModels } from "./harbor_plan.ts";
import type { EvalArgs } from "./eval_args.ts";

const ARGS: EvalArgs = { repeat: 1, jobs: 1, timeout: 1800, exec: { config: [] } };

async function withHome<T>(config: string, fn: (cwd: string, home: string) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "oi-harbor-plan-" });
  try {
    await Deno.writeTextFile(join(dir, "config.toml"), config);
    return await fn(dir, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("harborModels() plans Harbor names by their provider's wire, with no API key", async () => {
  await withHome("", async (cwd, home) => {
    const models = await harborModels(
      ["anthropic/claude-sonnet-4-5", "ollama_chat/qwen3", "openai/gpt-5"],
      { cwd, env: { OPENINTERPRETER_HOME: home }, overrides: [] },
    );
    assert.deepEqual(
      models.map((m) => [m.planned.spec, m.planned.provider, m.planned.wireApi, m.warning]),
      [
        ["anthropic/claude-sonnet-4-5", "anthropic", "messages", undefined],
        ["ollama_chat/qwen3", "ollama", "chat", undefined],
        ["openai/gpt-5", "openai", "responses", undefined],
      ],
    );
  });
});

Deno.test("harborModels() writes the configured model provider/model", async () => {
  await withHome('model = "claude-opus-4-1"\nmodel_provider = "anthropic"\n', async (cwd, home) => {
    const [model] = await harborModels([], {
      cwd,
      env: { OPENINTERPRETER_HOME: home },
      overrides: [],
    });
    assert.equal(model.planned.spec, "anthropic/claude-opus-4-1");
    assert.equal(model.warning, undefined);
  });
});

Deno.test("harborModels() flags a bare name and an unknown provider", async () => {
  await withHome("", async (cwd, home) => {
    const [bare, unknown] = await harborModels(["gpt-5", "vertex_ai/gemini"], {
      cwd,
      env: { OPENINTERPRETER_HOME: home },
      overrides: [],
    });
    assert.match(bare.warning!.message, /names no provider/);
    assert.match(bare.warning!.hint, /-m openai\/gpt-5/);
    assert.match(unknown.warning!.message, /no built-in provider "vertex_ai"/);
  });
});

Deno.test("checkHarborArgs() refuses a task, --check and a task file", () => {
  assert.throws(() => checkHarborArgs({ ...ARGS, task: "fix it" }), /cannot carry the task/);
  assert.throws(() => checkHarborArgs({ ...ARGS, check: "npm test" }), /cannot carry --check/);
  assert.throws(() => checkHarborArgs({ ...ARGS, tasks: "/dev/null" }), /is not a folder/);
  checkHarborArgs({ ...ARGS, tasks: "tests/fixtures/harbor_tasks" });
});
