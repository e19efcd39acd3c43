/**
 * Checks a job folder against Harbor's models (../shared/reference/harbor.md §2 and §9): JSON
 * Schemas written from Harbor 0.22.0's `JobConfig`, `JobResult`, `TrialConfig` and
 * `TrialResult`, then every trial's `agent/trajectory.json` against ATIF. Harbor ignores unknown
 * keys, so the schemas do too; what Harbor rejects (an `environment.type` outside its enum, a
 * task with neither or both of `path` and `name`, a wrong type) they reject.
 * `harborLayoutProblems()` lists every problem found.
 */
import { join, resolve } from "node:path";
import { Ajv } from "ajv";
import { atifProblems } from "./_atif.ts";

const timing = {
  type: ["object", "null"],
  required: ["started_at", "finished_at"],
  properties: { started_at: { type: "string" }, finished_at: { type: "string" } },
};
const uuid = { type: "string", pattern: "^[0-9a-f-]{36}$" };
const count = { type: ["integer", "null"], minimum: 0 };

/** Harbor 0.22.0's `EnvironmentType` (harbor.md §9); null names a custom `import_path`. */
const HARBOR_ENVIRONMENT_TYPES = [
  "docker",
  "daytona",
  "e2b",
  "modal",
  "runloop",
  "langsmith",
  "ec2",
  "gke",
  "ack",
  "openshift",
  "novita",
  "apple-container",
  "singularity",
  "islo",
  "tensorlake",
  "cwsandbox",
  "wandb",
  "use-computer",
  "cua-cloud",
  "blaxel",
  "opensandbox",
  "beam",
  "skypilot",
  "hf-sandbox",
  "hyperbrowser",
  "vercel",
];

const environment = {
  type: "object",
  properties: {
    type: { enum: [...HARBOR_ENVIRONMENT_TYPES, null] },
    import_path: { type: ["string", "null"] },
    force_build: { type: "boolean" },
    delete: { type: "boolean" },
  },
};

/** `TaskConfig`: a local `path` or a package `name`, never both. */
const task = {
  type: "object",
  properties: { path: { type: ["string", "null"] }, name: { type: ["string", "null"] } },
  oneOf: [
    { required: ["path"], properties: { path: { type: "string" }, name: { type: "null" } } },
    { required: ["name"], properties: { name: { type: "string" }, path: { type: "null" } } },
  ],
};

const agentConfig = {
  type: "object",
  required: ["model_name"],
  properties: {
    name: { type: ["string", "null"] },
    import_path: { type: ["string", "null"] },
    model_name: { type: "string" },
    kwargs: { type: "object" },
    env: { type: "object" },
  },
};

const trialConfig = {
  type: "object",
  required: ["task", "trial_name", "trials_dir", "agent"],
  properties: {
    task,
    trial_name: { type: "string" },
    trials_dir: { type: "string" },
    agent: agentConfig,
    environment,
    job_id: uuid,
  },
};

const SCHEMAS = {
  "config.json": {
    type: "object",
    required: ["job_name", "n_attempts", "agents"],
    properties: {
      job_name: { type: "string" },
      jobs_dir: { type: "string" },
      n_attempts: { type: "integer", minimum: 1 },
      n_concurrent_trials: { type: "integer", minimum: 1 },
      environment,
      agents: { type: "array", minItems: 1, items: agentConfig },
      tasks: { type: "array", items: task },
    },
  },
  "result.json": {
    type: "object",
    required: ["id", "started_at", "updated_at", "finished_at", "n_total_trials", "stats"],
    properties: {
      id: uuid,
      n_total_trials: { type: "integer" },
      stats: {
        type: "object",
        required: ["n_completed_trials", "n_errored_trials", "evals"],
        properties: {
          n_completed_trials: { type: "integer" },
          n_errored_trials: { type: "integer" },
          n_input_tokens: count,
          n_output_tokens: count,
          cost_usd: { type: ["number", "null"] },
          evals: {
            type: "object",
            propertyNames: { pattern: "^[^_]+(_[^_]+)*__.+__.+$" },
            additionalProperties: {
              type: "object",
              required: ["n_trials", "n_errors", "metrics", "reward_stats", "exception_stats"],
              properties: {
                n_trials: { type: "integer", minimum: 0 },
                n_errors: { type: "integer", minimum: 0 },
                metrics: { type: "array", items: { type: "object" } },
                // `dict[int, float]`: JSON keys are the k values.
                pass_at_k: {
                  type: "object",
                  propertyNames: { pattern: "^[1-9][0-9]*$" },
                  additionalProperties: { type: "number", minimum: 0, maximum: 1 },
                },
                reward_stats: {
                  type: "object",
                  additionalProperties: {
                    type: "object",
                    propertyNames: { pattern: "^-?[0-9]+(\\.[0-9]+)?$" },
                    additionalProperties: { type: "array", items: { type: "string" } },
                  },
                },
                exception_stats: {
                  type: "object",
                  additionalProperties: { type: "array", items: { type: "string" } },
                },
              },
            },
          },
        },
      },
    },
  },
  "trial/config.json": trialConfig,
  "trial/result.json": {
    type: "object",
    required: [
      "id",
      "task_name",
      "trial_name",
      "trial_uri",
      "task_id",
      "task_checksum",
      "config",
      "agent_info",
      "agent_result",
      "verifier_result",
      "exception_info",
      "started_at",
      "finished_at",
      "environment_setup",
      "agent_setup",
      "agent_execution",
      "verifier",
    ],
    properties: {
      id: uuid,
      task_name: { type: "string", minLength: 1 },
      trial_name: { type: "string", minLength: 1 },
      trial_uri: { type: "string", pattern: "^file:///" },
      task_checksum: { type: "string", pattern: "^[0-9a-f]{64}$" },
      config: trialConfig,
      agent_info: {
        type: "object",
        required: ["name", "version", "model_info"],
        properties: {
          name: { type: "string" },
          version: { type: "string" },
          model_info: {
            type: ["object", "null"],
            required: ["name", "provider"],
            properties: { name: { type: "string" }, provider: { type: ["string", "null"] } },
          },
        },
      },
      agent_result: {
        type: ["object", "null"],
        properties: {
          n_input_tokens: count,
          n_cache_tokens: count,
          n_output_tokens: count,
          cost_usd: { type: ["number", "null"] },
          metadata: { type: ["object", "null"] },
        },
      },
      verifier_result: {
        type: ["object", "null"],
        required: ["rewards"],
        properties: { rewards: { type: ["object", "null"] } },
      },
      environment_setup: timing,
      agent_execution: timing,
      verifier: timing,
    },
  },
};

const ajv = new Ajv({ allErrors: true });
const validators = Object.fromEntries(
  Object.entries(SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]),
);

/** Which of Harbor's models a document is checked against. */
export type HarborSchema = keyof typeof SCHEMAS;

/** Every way `doc` breaks `schema`, each prefixed with `label`; empty when Harbor loads it. */
export function harborSchemaProblems(doc: unknown, schema: HarborSchema, label = ""): string[] {
  const validate = validators[schema];
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${label}${e.instancePath} ${e.message}`);
}

async function problemsOf(file: string, schema: HarborSchema): Promise<string[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    return [`${file}: ${(error as Error).message}`];
  }
  return harborSchemaProblems(doc, schema, file);
}

/** Whether the job's `jobs_dir`/`job_name` name folder `dir`, the one actually written. */
async function folderProblems(dir: string): Promise<string[]> {
  try {
    const config = JSON.parse(await Deno.readTextFile(join(dir, "config.json")));
    const named = resolve(String(config.jobs_dir), String(config.job_name));
    const [a, b] = await Promise.all([Deno.realPath(named).catch(() => named), Deno.realPath(dir)]);
    return a === b ? [] : [`${dir}/config.json: jobs_dir/job_name name ${named}, not ${dir}`];
  } catch {
    return []; // The schema check reports an unreadable config.
  }
}

/** Every way job folder `dir` breaks Harbor's layout; empty when `harbor view` can read it. */
export async function harborLayoutProblems(dir: string): Promise<string[]> {
  const problems = [
    ...await problemsOf(join(dir, "config.json"), "config.json"),
    ...await problemsOf(join(dir, "result.json"), "result.json"),
    ...await folderProblems(dir),
  ];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isDirectory) continue;
    const trial = join(dir, entry.name);
    problems.push(...await problemsOf(join(trial, "config.json"), "trial/config.json"));
    problems.push(...await problemsOf(join(trial, "result.json"), "trial/result.json"));
    const reward = await Deno.readTextFile(join(trial, "verifier", "reward.txt")).catch(() => "");
    if (!/^\d+(\.\d+)?\n?$/.test(reward)) {
      problems.push(`${trial}: verifier/reward.txt "${reward}"`);
    }
    try {
      const trajectory = JSON.parse(
        await Deno.readTextFile(join(trial, "agent", "trajectory.json")),
      );
      problems.push(...atifProblems(trajectory).map((p) => `${trial}/agent/trajectory.json: ${p}`));
    } catch (error) {
      problems.push(`${trial}/agent/trajectory.json: ${(error as Error).message}`);
    }
  }
  return problems;
}
