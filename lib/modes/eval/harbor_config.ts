/**
 * A Harbor job config (`harbor run -c job.yaml`) that runs an eval's harnesses × models in
 * Harbor's task containers through our Harbor agent, `interpreter_harbor:Interpreter`.
 */
import { basename, dirname, join, resolve } from "node:path";
import { stringify } from "yaml";
import { builtinProvider } from "../../session/builtin_providers.ts";
import { HARBOR_SHIM_DIR, shellWord } from "./harbor_tasks.ts";
import { HARBOR_AGENT_IMPORT_PATH, harborAgentName } from "./job_layout.ts";

/** LiteLLM provider names (Harbor's model naming) whose interpreter id differs, as the shim maps them. */
const LITELLM_ALIASES: Readonly<Record<string, string>> = {
  ollama_chat: "ollama",
  lm_studio: "lmstudio",
  zai: "zhipu",
};

/** Our provider id for the provider part of a Harbor model name (LiteLLM's, any case). */
export function providerIdOf(named: string): string {
  const id = named.toLowerCase();
  return LITELLM_ALIASES[id] ?? id;
}

/** What the job runs and how widely. */
export interface HarborJobOptions {
  /** Harness ids; one agent entry per harness × model. */
  harnesses: string[];
  /** Models as Harbor names them (`anthropic/claude-sonnet-4-5`). */
  models: string[];
  /** Attempts per task and agent (`n_attempts`). */
  repeat: number;
  /** Trials at once (`n_concurrent_trials`). */
  jobs: number;
  /** A Harbor task folder or a folder of them; Terminal-Bench 2.0 when not given. Read once. */
  tasksPath?: string;
  /** Harbor's environment type (`docker`, `daytona`, `modal`…) or a `module:Class`; docker. */
  env?: string;
  /** The folder of `interpreter_harbor.py`, for PYTHONPATH; HARBOR_SHIM_DIR when not given. */
  shimDir?: string;
  /** The job folder Harbor writes (`jobs_dir`/`job_name`); Harbor's `jobs/<time>` when not given. */
  out?: string;
}

/**
 * Terminal-Bench 2.0 in the registry form (a name without "/" and a version): the form of
 * Harbor 0.1.x (`-d terminal-bench@2.0`), which later releases still resolve from the default
 * registry. The package form `terminal-bench/terminal-bench-2` exists only in newer releases.
 */
const TERMINAL_BENCH_2 = { name: "terminal-bench", version: "2.0" };

/**
 * The YAML text of a Harbor JobConfig with one agent entry per harness × model, preceded by a
 * comment saying how to run it. `RangeError` on an empty list or a count below 1.
 */
export function harborJobConfig(opts: HarborJobOptions): string {
  checkOptions(opts);
  const agents = opts.harnesses.flatMap((harness) =>
    opts.models.map((model) => ({
      name: harborAgentName(harness),
      import_path: HARBOR_AGENT_IMPORT_PATH,
      model_name: model,
      kwargs: { harness },
    }))
  );
  const env = opts.env ?? "docker";
  const out = opts.out === undefined ? undefined : resolve(opts.out);
  const config = {
    ...(out === undefined ? {} : { jobs_dir: dirname(out), job_name: basename(out) }),
    n_attempts: opts.repeat,
    n_concurrent_trials: opts.jobs,
    environment: env.includes(":") ? { import_path: env } : { type: env },
    agents,
    ...tasksOf(opts.tasksPath),
  };
  return `${header(opts)}\n${stringify(config)}`;
}

/**
 * Where the job's tasks come from: `tasks` for one task folder (one holding task.toml), since
 * Harbor reads a dataset path as a folder of task folders; `datasets` otherwise.
 */
function tasksOf(tasksPath: string | undefined) {
  if (tasksPath === undefined) return { datasets: [TERMINAL_BENCH_2] };
  const path = resolve(tasksPath);
  return isFile(join(path, "task.toml")) ? { tasks: [{ path }] } : { datasets: [{ path }] };
}

/** Whether `path` is a file (false when it is missing). */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function checkOptions(opts: HarborJobOptions): void {
  if (opts.harnesses.length === 0) throw new RangeError("harborJobConfig() needs a harness");
  if (opts.models.length === 0) throw new RangeError("harborJobConfig() needs a model");
  for (const key of ["repeat", "jobs"] as const) {
    if (!Number.isInteger(opts[key]) || opts[key] < 1) {
      throw new RangeError(`harborJobConfig() needs ${key} to be an integer of at least 1`);
    }
  }
}

/** The comment block at the top of the file: what the job is and how to run it. */
function header(opts: HarborJobOptions): string {
  const tasks = opts.tasksPath === undefined ? "Terminal-Bench 2.0" : resolve(opts.tasksPath);
  const attempts = opts.repeat === 1 ? "1 attempt" : `${opts.repeat} attempts`;
  const where = opts.shimDir === undefined
    ? ["# Run it from the interpreter repository, so that Python finds our agent"]
    : ["# Run it with PYTHONPATH set to the folder of our agent"];
  const keys = apiKeys(opts.models);
  const view = opts.out === undefined ? "jobs" : shellWord(dirname(resolve(opts.out)));
  return [
    `# Harbor job: interpreter on ${tasks}, ${attempts} of each harness × model.`,
    `#   harnesses: ${opts.harnesses.join(", ")}`,
    `#   models: ${opts.models.join(", ")}`,
    ...where,
    keys.length > 0
      ? `# (integrations/harbor/interpreter_harbor.py), with ${keys.join(", ")} set:`
      : "# (integrations/harbor/interpreter_harbor.py):",
    `#   PYTHONPATH=${shellWord(opts.shimDir ?? HARBOR_SHIM_DIR)} harbor run -c job.yaml`,
    ...(opts.out === undefined ? [] : [`# It writes the job to ${resolve(opts.out)}.`]),
    "# Then open the results (one row per harness × model: each harness is its own agent):",
    `#   harbor view ${view}`,
    "",
  ].join("\n");
}

/** The API key variables the models' providers read in the container, each once. */
function apiKeys(models: readonly string[]): string[] {
  const keys = models.flatMap((model) => {
    const slash = model.indexOf("/");
    const key = builtinProvider(providerIdOf(slash > 0 ? model.slice(0, slash) : "openai"))?.envKey;
    return key ? [key] : [];
  });
  return [...new Set(keys)];
}
