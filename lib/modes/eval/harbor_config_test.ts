import assert from "node:assert/strict";
import { resolve } from "node:path";
import { parse } from "yaml";
import { harborJobConfig } from "./harbor_config.ts";
import { harborAgentName } from "./job_layout.ts";

Deno.test("harborJobConfig() writes one agent per harness × model on local tasks", () => {
  const text = harborJobConfig({
    harnesses: ["claude-code", "native"],
    models: ["anthropic/claude-sonnet-4-5", "openai/gpt-5"],
    repeat: 3,
    jobs: 8,
    tasksPath: "tests/fixtures/harbor_tasks",
    env: "daytona",
  });
  assert.deepEqual(parse(text), {
    n_attempts: 3,
    n_concurrent_trials: 8,
    environment: { type: "daytona" },
    agents: [
      ["claude-code", "anthropic/claude-sonnet-4-5"],
      ["claude-code", "openai/gpt-5"],
      ["native", "anthropic/claude-sonnet-4-5"],
      ["native", "openai/gpt-5"],
    ].map(([harness, model]) => ({
      name: `interpreter-${harness}`,
      import_path: "interpreter_harbor:Interpreter",
      model_name: model,
      kwargs: { harness },
    })),
    datasets: [{ path: resolve("tests/fixtures/harbor_tasks") }],
  });
});

Deno.test("harborJobConfig() starts with a comment saying how to run and view the job", () => {
  const text = harborJobConfig({ harnesses: ["minimal"], models: ["m"], repeat: 1, jobs: 1 });
  const comment = text.split("\n").filter((line) => line.startsWith("#")).join("\n");
  assert.match(
    comment,
    /^# Harbor job: interpreter on Terminal-Bench 2\.0, 1 attempt of each harness × model\.\n/,
  );
  assert.match(comment, /^# {3}harnesses: minimal\n# {3}models: m$/m);
  assert.match(comment, /^# {3}PYTHONPATH=integrations\/harbor harbor run -c job\.yaml$/m);
  assert.match(comment, /^# {3}harbor view jobs$/m);
  assert.match(
    comment,
    /^# \(integrations\/harbor\/interpreter_harbor\.py\), with OPENAI_API_KEY set:$/m,
  );
  const shim = harborJobConfig({
    harnesses: ["minimal"],
    models: ["m"],
    repeat: 1,
    jobs: 1,
    shimDir: "/opt/inter preter/integrations/harbor",
  });
  assert.match(shim, /^# {3}PYTHONPATH='\/opt\/inter preter\/integrations\/harbor' harbor run/m);
});

Deno.test("harborJobConfig() lists one task folder as a task, not a dataset", () => {
  const path = resolve("tests/fixtures/harbor_tasks/hello");
  const config = parse(harborJobConfig({
    harnesses: ["minimal"],
    models: ["m"],
    repeat: 1,
    jobs: 1,
    tasksPath: path,
  }));
  assert.deepEqual(config.tasks, [{ path }]);
  assert.equal(config.datasets, undefined);
});

Deno.test("harborJobConfig() defaults to Docker and Terminal-Bench 2.0 by registry name", () => {
  const text = harborJobConfig({ harnesses: ["minimal"], models: ["m"], repeat: 5, jobs: 2 });
  const config = parse(text);
  assert.deepEqual(config.environment, { type: "docker" });
  assert.deepEqual(config.datasets, [{ name: "terminal-bench", version: "2.0" }]);
  assert.match(text, /version: "2\.0"/, "the version stays a string, not the number 2");
});

Deno.test("harborJobConfig() takes an environment given as module:Class as its import path", () => {
  const config = parse(harborJobConfig({
    harnesses: ["minimal"],
    models: ["m"],
    repeat: 1,
    jobs: 1,
    env: "my_envs.remote:RemoteEnvironment",
  }));
  assert.deepEqual(config.environment, { import_path: "my_envs.remote:RemoteEnvironment" });
});

Deno.test("harborJobConfig() throws RangeError on no harness, no model or a count below 1", () => {
  const base = { harnesses: ["minimal"], models: ["m"], repeat: 1, jobs: 1 };
  assert.throws(() => harborJobConfig({ ...base, harnesses: [] }), RangeError);
  assert.throws(() => harborJobConfig({ ...base, models: [] }), RangeError);
  assert.throws(() => harborJobConfig({ ...base, repeat: 0 }), RangeError);
  assert.throws(() => harborJobConfig({ ...base, jobs: 1.5 }), RangeError);
});

Deno.test("harborJobConfig() sends the job to --out and names only the keys its models use", () => {
  const out = resolve("/tmp/evals/ab run");
  const text = harborJobConfig({
    harnesses: ["minimal"],
    models: ["anthropic/claude-sonnet-4-5", "ollama_chat/qwen3", "zai/glm-4.6"],
    repeat: 1,
    jobs: 1,
    out,
  });
  const config = parse(text);
  assert.equal(config.jobs_dir, "/tmp/evals");
  assert.equal(config.job_name, "ab run");
  assert.match(text, /^# It writes the job to \/tmp\/evals\/ab run\.$/m);
  assert.match(text, /^# {3}harbor view \/tmp\/evals$/m);
  assert.match(text, /, with ANTHROPIC_API_KEY, ZHIPUAI_API_KEY set:$/m, "none for Ollama");
  assert.doesNotMatch(text, /OPENAI_API_KEY/);
});

Deno.test("harborAgentName() is never one of Harbor's built-in agent names", () => {
  // Harbor 0.22.0 loads a built-in agent by name before it looks at import_path.
  for (const harness of ["claude-code", "codex", "qwen-code", "terminus-2", "opencode"]) {
    assert.equal(harborAgentName(harness), `interpreter-${harness}`);
  }
});
