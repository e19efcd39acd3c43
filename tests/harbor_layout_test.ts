/**
 * The Harbor schemas of `_harbor_layout.ts` accept what eval's job folder writers produce and
 * reject what Harbor 0.22.0 rejects (../shared/reference/harbor.md §9).
 */
import assert from "node:assert/strict";
import { harborSchemaProblems } from "./_harbor_layout.ts";
import {
  jobConfig,
  type JobPlan,
  jobResult,
  trialConfig,
  trialResult,
} from "../lib/modes/eval/job_layout.ts";
import { makeRecord } from "../lib/modes/eval/report/_test_records.ts";

const TASK = { name: "habits", prompt: "fix it", check: "true" };
const PLAN: JobPlan = {
  id: "0b9d3f7e-2c1a-4e53-9d0f-5f1e0c7a9b21",
  name: "2026-12-05__04-00-00",
  startedAt: "2026-12-05T04:00:00Z",
  tasks: [TASK],
  harnesses: ["native", "minimal"],
  models: ["openai/gpt-4.1"],
  pairs: [{ harness: "native", model: "openai/gpt-4.1" }, {
    harness: "minimal",
    model: "openai/gpt-4.1",
  }],
  repeat: 2,
  jobs: 1,
  source: "/repo",
  withChanges: false,
  execFlags: [],
  timeoutSec: 60,
};
const TRIAL = {
  name: "habits__abcdefg",
  task: TASK,
  harness: "native",
  model: "openai/gpt-4.1",
  attempt: 1,
};

async function written() {
  const record = makeRecord({ trial: TRIAL.name, task: "habits", model: TRIAL.model });
  const times = { setup: { started_at: record.started_at, finished_at: record.started_at } };
  return {
    job: jobConfig(PLAN, "/jobs/j"),
    trial: trialConfig(TRIAL, PLAN, "/jobs/j"),
    trialResult: await trialResult(record, { trial: TRIAL, plan: PLAN, jobDir: "/jobs/j", times }),
    result: jobResult(PLAN, [record, { ...record, trial: "habits__bbbbbbb", reward: 0 }], {
      total: 2,
      running: 0,
    }),
  };
}

Deno.test("eval's job and trial configs and results pass Harbor's schemas, pass@k included", async () => {
  const docs = await written();
  assert.deepEqual(harborSchemaProblems(docs.job, "config.json"), []);
  assert.deepEqual(harborSchemaProblems(docs.trial, "trial/config.json"), []);
  assert.deepEqual(harborSchemaProblems(docs.trialResult, "trial/result.json"), []);
  assert.deepEqual(harborSchemaProblems(docs.result, "result.json"), []);
  const evals = Object.values(docs.result.stats.evals);
  assert.deepEqual(evals[0].pass_at_k, { "2": 1 });
});

Deno.test("an environment.type outside Harbor's enum fails the job config, the trial config and the trial result", async () => {
  const docs = await written();
  const local = { type: "local", force_build: false, delete: true };
  const failing = [
    harborSchemaProblems({ ...docs.job, environment: local }, "config.json"),
    harborSchemaProblems({ ...docs.trial, environment: local }, "trial/config.json"),
    harborSchemaProblems(
      { ...docs.trialResult, config: { ...docs.trialResult.config, environment: local } },
      "trial/result.json",
    ),
  ];
  for (const problems of failing) {
    assert.ok(problems.some((p) => p.includes("/environment/type")), problems.join("\n"));
  }
  // A custom environment: type null with an import path, as Harbor allows.
  const custom = { type: null, import_path: "my_env:Sandbox" };
  assert.deepEqual(harborSchemaProblems({ ...docs.job, environment: custom }, "config.json"), []);
});

Deno.test("the schemas reject a task with both or neither of path and name, and a pass@k key that is not a k", async () => {
  const docs = await written();
  const both = { ...docs.trial, task: { path: "/t", name: "org/t" } };
  assert.notDeepEqual(harborSchemaProblems(both, "trial/config.json"), []);
  assert.notDeepEqual(harborSchemaProblems({ ...docs.trial, task: {} }, "trial/config.json"), []);
  const named = { ...docs.trial, task: { name: "org/t" } };
  assert.deepEqual(harborSchemaProblems(named, "trial/config.json"), []);
  const [key, group] = Object.entries(docs.result.stats.evals)[0];
  const bad = {
    ...docs.result,
    stats: { ...docs.result.stats, evals: { [key]: { ...group, pass_at_k: { two: 0.5 } } } },
  };
  assert.notDeepEqual(harborSchemaProblems(bad, "result.json"), []);
});
