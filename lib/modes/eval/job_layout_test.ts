import assert from "node:assert/strict";
import { join } from "node:path";
import { VERSION } from "../../version.ts";
import {
  adHocTaskName,
  jobConfig,
  type JobPlan,
  jobResult,
  readRecords,
  trialConfig,
  trialName,
  trialResult,
} from "./job_layout.ts";
import { makeRecord } from "./report/_test_records.ts";
import type { EvalTask } from "./types.ts";

const TASK: EvalTask = { name: "task", prompt: "fix it", check: "true" };

function plan(): JobPlan {
  return {
    id: "job-id",
    name: "2025-06-01__10-00-00",
    startedAt: "2025-06-01T10:00:00Z",
    tasks: [TASK],
    harnesses: ["native"],
    models: ["openai/gpt-4.1"],
    pairs: [{ harness: "native", model: "openai/gpt-4.1" }],
    repeat: 3,
    jobs: 1,
    source: "/repo",
    withChanges: false,
    execFlags: ["--ask-for-approval", "never"],
    timeoutSec: 1800,
  };
}

/** A passed, a failed and a timed-out run of native with `openai/gpt-4.1`. */
function mixedRecords() {
  const model = "openai/gpt-4.1";
  return [
    makeRecord({
      trial: "task__pass001",
      model,
      attempt: 1,
      tokens: { input: 1000, output: 100, cached: 10 },
      cost_usd: 0.25,
    }),
    makeRecord({
      trial: "task__fail002",
      model,
      attempt: 2,
      passed: false,
      status: "failed",
      tokens: { input: 2000, output: 200, cached: 20 },
      cost_usd: 0.5,
    }),
    makeRecord({
      trial: "task__time003",
      model,
      attempt: 3,
      passed: false,
      status: "timeout",
      error: "The agent ran past its time limit of 60 s",
      tokens: { input: 4000, output: 400, cached: 40 },
      cost_usd: 1,
    }),
  ];
}

Deno.test("trialName() is the task name cut to 32 characters, two underscores and 7 alphanumerics", () => {
  assert.match(trialName("fix-bug"), /^fix-bug__[A-Za-z0-9]{7}$/);
  const long = "a".repeat(30) + "bcdefghijk";
  assert.equal(long.length, 40);
  const name = trialName(long);
  assert.match(name, /^a{30}bc__[A-Za-z0-9]{7}$/);
  assert.equal(name.length, 32 + 2 + 7);
  // Harbor strips trailing "_" and "-" from the cut name.
  assert.match(trialName("a".repeat(31) + "-_rest"), /^a{31}__[A-Za-z0-9]{7}$/);
  const names = new Set(Array.from({ length: 50 }, () => trialName("t")));
  assert.equal(names.size, 50, "names are random");
});

Deno.test("jobResult() gives Harbor's stats for a passed, a failed and a timed-out run", () => {
  const records = mixedRecords();
  const result = jobResult(plan(), records, { total: 5, running: 1 });
  assert.equal(result.id, "job-id");
  assert.equal(result.n_total_trials, 5);
  assert.equal(result.finished_at, null);
  const { evals, ...stats } = result.stats;
  assert.deepEqual(stats, {
    n_completed_trials: 3,
    n_errored_trials: 1,
    n_running_trials: 1,
    n_pending_trials: 1,
    n_cancelled_trials: 0,
    n_retries: 0,
    n_input_tokens: 7000,
    n_cache_tokens: 70,
    n_output_tokens: 700,
    cost_usd: 1.75,
  });
  assert.deepEqual(Object.keys(evals), ["interpreter-native__gpt-4.1__adhoc"]);
  const group = evals["interpreter-native__gpt-4.1__adhoc"];
  assert.equal(group.n_trials, 3);
  assert.equal(group.metrics.length, 1);
  assert.ok(Math.abs(group.metrics[0].mean - 1 / 3) < 1e-9, JSON.stringify(group.metrics));
  assert.deepEqual(group.reward_stats, {
    reward: { "1": ["task__pass001"], "0": ["task__fail002", "task__time003"] },
  });
  assert.deepEqual(group.exception_stats, { AgentTimeoutError: ["task__time003"] });
  // 1 pass in 3 trials: pass@2 = 1 - C(2,2)/C(3,2); k = 4 would need 4 trials.
  assert.deepEqual(Object.keys(group.pass_at_k), ["2"]);
  assert.ok(Math.abs(group.pass_at_k["2"] - 2 / 3) < 1e-9, JSON.stringify(group.pass_at_k));
});

Deno.test("jobConfig() and trialConfig() name the folder written and an environment type Harbor accepts", () => {
  const config = jobConfig(plan(), "/home/u/runs/my-job");
  assert.equal(config.jobs_dir, "/home/u/runs");
  assert.equal(config.job_name, "my-job");
  assert.equal(config.environment.type, "docker");
  assert.deepEqual(config.agents.map((a) => [a.name, a.kwargs.harness]), [
    ["interpreter-native", "native"],
  ]);
  const trial = { name: "task__abcdefg", task: TASK, harness: "native", model: "m", attempt: 1 };
  const trialCfg = trialConfig(trial, plan(), "/home/u/runs/my-job");
  assert.equal(trialCfg.environment.type, "docker");
  assert.equal(trialCfg.trials_dir, "/home/u/runs/my-job");
});

Deno.test("adHocTaskName() names a command-line task after its folder, in a task name's characters", () => {
  assert.equal(adHocTaskName("/home/u/habit-tracker"), "habit-tracker");
  assert.equal(adHocTaskName("/home/u/my app (v2)"), "my-app-v2-");
  assert.equal(adHocTaskName("/home/u/.hidden"), "hidden");
  assert.equal(adHocTaskName("/"), "task");
});

Deno.test("jobResult() keeps harnesses apart, and its cost is null when any run's cost is unknown", () => {
  const records = [
    ...mixedRecords(),
    makeRecord({ trial: "task__cc00001", harness: "claude-code", cost_usd: null }),
  ];
  const result = jobResult(plan(), records, {
    total: 4,
    running: 0,
    finishedAt: "2025-06-01T11:00:00Z",
  });
  assert.equal(result.stats.cost_usd, null);
  assert.equal(result.stats.n_pending_trials, 0);
  assert.equal(result.finished_at, "2025-06-01T11:00:00Z");
  assert.deepEqual(Object.keys(result.stats.evals).sort(), [
    "interpreter-claude-code__gpt-4.1__adhoc",
    "interpreter-native__gpt-4.1__adhoc",
  ]);
  assert.deepEqual(result.stats.evals["interpreter-claude-code__gpt-4.1__adhoc"].metrics, [
    { mean: 1 },
  ]);
});

Deno.test("trialResult() carries the record in agent_result.metadata.interpreter and splits the model on the first slash", async () => {
  const record = makeRecord({
    trial: "task__abcdefg",
    model: "openrouter/qwen/qwen3-coder",
    provider: "openrouter",
    status: "timeout",
    passed: false,
    reward: 0,
    error: "The agent ran past its time limit of 60 s",
  });
  const trial = {
    name: "task__abcdefg",
    task: TASK,
    harness: "native",
    model: record.model,
    attempt: 1,
  };
  const times = { setup: { started_at: "a", finished_at: "b" } };
  const result = await trialResult(record, { trial, plan: plan(), jobDir: "/jobs/j", times });
  assert.deepEqual(result.agent_result.metadata.interpreter, record);
  assert.deepEqual(result.agent_info.model_info, {
    name: "qwen/qwen3-coder",
    provider: "openrouter",
  });
  // As our Harbor agent records itself; the harness rides in the configs and the metadata.
  assert.equal(result.agent_info.name, "interpreter");
  assert.equal(result.agent_info.version, VERSION);
  assert.notEqual(VERSION, "unknown");
  assert.equal(result.agent_result.metadata.harness, "native");
  assert.equal(result.config.agent.kwargs.harness, "native");
  assert.equal(result.trial_name, "task__abcdefg");
  assert.equal(result.trial_uri, "file:///jobs/j/task__abcdefg");
  assert.deepEqual(result.verifier_result, { rewards: { reward: 0 } });
  assert.equal(result.exception_info?.exception_type, "AgentTimeoutError");
  assert.equal(result.exception_info?.exception_message, record.error);
  assert.equal(result.agent_execution, null);
  assert.equal(result.agent_result.n_input_tokens, record.tokens.input);

  const plain = await trialResult({ ...record, model: "gpt-4.1", status: "completed" }, {
    trial,
    plan: plan(),
    jobDir: "/jobs/j",
    times,
  });
  assert.equal(plain.agent_info.model_info.name, "gpt-4.1");
  assert.equal(plain.exception_info, null);
});

Deno.test("readRecords() returns the trials' records by trial name and skips unfinished or broken ones", async () => {
  const dir = await Deno.makeTempDir({ prefix: "eval_job_layout_" });
  try {
    const write = async (trial: string, text: string) => {
      await Deno.mkdir(join(dir, trial), { recursive: true });
      await Deno.writeTextFile(join(dir, trial, "result.json"), text);
    };
    const times = { setup: { started_at: "a", finished_at: "b" } };
    for (const name of ["task__zzzzzzz", "task__aaaaaaa", "task__mmmmmmm"]) {
      const record = makeRecord({ trial: name });
      const trial = { name, task: TASK, harness: "native", model: record.model, attempt: 1 };
      const result = await trialResult(record, { trial, plan: plan(), jobDir: dir, times });
      await write(name, JSON.stringify(result));
    }
    await Deno.mkdir(join(dir, "task__running"));
    await write("task__broken1", '{"agent_result": {"metadata": {"interpreter": {');
    await write("task__noinfo1", JSON.stringify({ agent_result: null }));
    await write(".hidden", JSON.stringify({ agent_result: { metadata: { interpreter: {} } } }));
    await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify({ id: "job" }));

    const records = await readRecords(dir);
    assert.deepEqual(records.map((r) => r.trial), [
      "task__aaaaaaa",
      "task__mmmmmmm",
      "task__zzzzzzz",
    ]);
    assert.deepEqual(records[0], makeRecord({ trial: "task__aaaaaaa" }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
