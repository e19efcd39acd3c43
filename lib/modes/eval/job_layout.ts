/**
 * The job folder in Harbor's layout (../shared/reference/harbor.md §2): the job's `config.json`
 * and `result.json`, and per run a trial folder with `config.json`, `result.json`,
 * `agent/trajectory.json` and `verifier/`. Our own plan is kept beside them in `eval.json`;
 * each run's record rides in its trial result as `agent_result.metadata.interpreter`.
 */
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { VERSION } from "../../version.ts";
import { passAtK } from "./pass_at_k.ts";
import type { EvalTask, RunRecord } from "./types.ts";

/** The Harbor import path of our installed agent (integrations/harbor/interpreter_harbor.py). */
export const HARBOR_AGENT_IMPORT_PATH = "interpreter_harbor:Interpreter";

/** The name our Harbor agent reports (`Interpreter.name()`), which Harbor records in `agent_info`. */
const HARBOR_AGENT_NAME = "interpreter";

/**
 * The environment recorded in configs. Harbor's `environment.type` is a strict enum with no
 * value for eval's sandboxed copies on this machine (harbor.md §9), and any other value makes
 * Harbor reject the job; `docker`, the type Harbor assumes when none is given, is recorded.
 */
const ENVIRONMENT = { type: "docker", force_build: false, delete: true };

/** One planned run. */
export interface TrialPlan {
  /** `<task[:32]>__<7 characters>`, as Harbor names trials. */
  name: string;
  task: EvalTask;
  harness: string;
  model: string;
  attempt: number;
}

/** The job as eval planned it (`eval.json`): what `--resume` and `eval report` read back. */
export interface JobPlan {
  id: string;
  name: string;
  startedAt: string;
  tasks: EvalTask[];
  harnesses: string[];
  models: string[];
  /** The harness × model pairs that run (`fitting` leaves out those that cannot talk). */
  pairs: Array<{ harness: string; model: string }>;
  repeat: number;
  jobs: number;
  /** Where eval ran: the copies are made from its repository (or folder). */
  source: string;
  withChanges: boolean;
  /** The flags every run's `exec` gets. */
  execFlags: string[];
  /** The agent's time limit when a task sets none, in seconds. */
  timeoutSec: number;
}

/**
 * The agent's name in the configs, one per harness: Harbor's viewer names a trial of an
 * import-path agent by it, so the harnesses of one model get rows of their own there. The job's
 * `stats.evals` are keyed by it too (`<agent>__<model>__<dataset>`), where Harbor would key by
 * `agent_info.name`, the same `interpreter` for every harness, and pool the harnesses.
 * Never one of Harbor's built-in agent names (those would replace our agent), so Harbor loads the
 * entry from its import path.
 */
export function harborAgentName(harness: string): string {
  return `interpreter-${harness}`;
}

/**
 * The name of a task given on the command line: the name of the folder eval runs in, as Harbor
 * names a task by its folder; characters a folder name cannot carry become "-".
 */
export function adHocTaskName(dir: string): string {
  const name = basename(dir).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return name || "task";
}

/** A trial name in Harbor's form: the task name cut to 32 characters and 7 random characters. */
export function trialName(task: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(7));
  const tail = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
  // Harbor strips trailing "_" and "-" from the cut name.
  return `${task.slice(0, 32).replace(/[_-]+$/, "")}__${tail}`;
}

function agentConfig(harness: string, model: string) {
  return {
    name: harborAgentName(harness),
    import_path: HARBOR_AGENT_IMPORT_PATH,
    model_name: model,
    kwargs: { harness },
    env: {},
  };
}

function taskPath(task: EvalTask, plan: JobPlan): string {
  return task.harborDir ?? plan.source;
}

/** The job's `config.json` (Harbor's JobConfig); `jobs_dir`/`job_name` name `jobDir`. */
export function jobConfig(plan: JobPlan, jobDir: string) {
  return {
    job_name: basename(jobDir),
    jobs_dir: dirname(jobDir),
    n_attempts: plan.repeat,
    timeout_multiplier: 1.0,
    n_concurrent_trials: plan.jobs,
    quiet: false,
    environment: ENVIRONMENT,
    verifier: { disable: false },
    agents: plan.pairs.map((p) => agentConfig(p.harness, p.model)),
    datasets: [],
    tasks: plan.tasks.map((task) => ({ path: taskPath(task, plan) })),
  };
}

/** A trial's `config.json` (Harbor's TrialConfig). */
export function trialConfig(trial: TrialPlan, plan: JobPlan, jobDir: string) {
  return {
    task: { path: taskPath(trial.task, plan) },
    trial_name: trial.name,
    trials_dir: jobDir,
    timeout_multiplier: 1.0,
    agent: agentConfig(trial.harness, trial.model),
    environment: ENVIRONMENT,
    verifier: { disable: false },
    job_id: plan.id,
  };
}

/** When a phase started and ended. */
export interface Timing {
  started_at: string;
  finished_at: string;
}

/** What a trial's `result.json` needs beyond its record. */
export interface TrialTimes {
  setup: Timing;
  agent?: Timing;
  verifier?: Timing;
}

/** A trial's `result.json` (Harbor's TrialResult) carrying the run's record. */
export async function trialResult(
  record: RunRecord,
  ctx: { trial: TrialPlan; plan: JobPlan; jobDir: string; times: TrialTimes },
) {
  const { trial, plan, jobDir, times } = ctx;
  const dir = join(jobDir, trial.name);
  const slash = record.model.indexOf("/");
  return {
    id: crypto.randomUUID(),
    task_name: trial.task.name,
    trial_name: trial.name,
    trial_uri: pathToFileURL(dir).href,
    source: null,
    task_id: { path: taskPath(trial.task, plan) },
    task_checksum: await sha256(JSON.stringify(trial.task)),
    config: trialConfig(trial, plan, jobDir),
    agent_info: {
      name: HARBOR_AGENT_NAME,
      version: VERSION,
      model_info: {
        name: slash < 0 ? record.model : record.model.slice(slash + 1),
        provider: record.provider,
      },
    },
    agent_result: {
      n_input_tokens: record.tokens.input,
      n_cache_tokens: record.tokens.cached,
      n_output_tokens: record.tokens.output,
      cost_usd: record.cost_usd,
      rollout_details: null,
      // The harness as our Harbor agent records it, and eval's whole record of the run.
      metadata: { harness: record.harness, harness_hash: record.harness_hash, interpreter: record },
    },
    verifier_result: record.reward === null ? null : { rewards: { reward: record.reward } },
    exception_info: exceptionOf(record),
    started_at: record.started_at,
    finished_at: record.finished_at,
    environment_setup: times.setup,
    agent_setup: null,
    agent_execution: times.agent ?? null,
    verifier: times.verifier ?? null,
  };
}

function exceptionOf(record: RunRecord) {
  if (record.status !== "timeout" && record.status !== "error") return null;
  return {
    exception_type: record.status === "timeout" ? "AgentTimeoutError" : "NonZeroAgentExitCodeError",
    exception_message: record.error ?? record.status,
    exception_traceback: "",
    occurred_at: record.finished_at,
  };
}

/** The job's `result.json` (Harbor's JobResult, without trial results, as Harbor writes it). */
export function jobResult(
  plan: JobPlan,
  records: RunRecord[],
  state: { total: number; running: number; finishedAt?: string },
) {
  const errored = records.filter((r) => r.status === "error" || r.status === "timeout").length;
  const sum = (pick: (r: RunRecord) => number) => records.reduce((n, r) => n + pick(r), 0);
  const costs = records.map((r) => r.cost_usd);
  return {
    id: plan.id,
    started_at: plan.startedAt,
    updated_at: new Date().toISOString(),
    finished_at: state.finishedAt ?? null,
    n_total_trials: state.total,
    stats: {
      n_completed_trials: records.length,
      n_errored_trials: errored,
      n_running_trials: state.running,
      n_pending_trials: Math.max(0, state.total - records.length - state.running),
      n_cancelled_trials: 0,
      n_retries: 0,
      n_input_tokens: sum((r) => r.tokens.input),
      n_cache_tokens: sum((r) => r.tokens.cached),
      n_output_tokens: sum((r) => r.tokens.output),
      cost_usd: costs.some((c) => c === null) ? null : sum((r) => r.cost_usd ?? 0),
      evals: evalsOf(records),
    },
  };
}

function evalsOf(records: RunRecord[]) {
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const model = r.model.includes("/") ? r.model.slice(r.model.indexOf("/") + 1) : r.model;
    const key = `${harborAgentName(r.harness)}__${model}__adhoc`;
    groups.set(key, [...groups.get(key) ?? [], r]);
  }
  return Object.fromEntries([...groups].map(([key, runs]) => {
    const rewarded = runs.filter((r) => r.reward !== null);
    const mean = rewarded.reduce((n, r) => n + r.reward!, 0) / Math.max(1, rewarded.length);
    const rewardStats: Record<string, string[]> = {};
    for (const r of rewarded) (rewardStats[String(r.reward)] ??= []).push(r.trial);
    const exceptions: Record<string, string[]> = {};
    for (const r of runs) {
      const type = exceptionOf(r)?.exception_type;
      if (type) (exceptions[type] ??= []).push(r.trial);
    }
    return [key, {
      n_trials: rewarded.length,
      n_errors: runs.filter((r) => exceptionOf(r) !== null).length,
      metrics: [{ mean }],
      pass_at_k: passAtK(runs),
      reward_stats: { reward: rewardStats },
      exception_stats: exceptions,
    }];
  }));
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The records of every finished trial of job folder `dir`, in trial-name order. */
export async function readRecords(dir: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isDirectory || entry.name.startsWith(".")) continue;
    const text = await Deno.readTextFile(join(dir, entry.name, "result.json")).catch(() => "");
    if (!text) continue;
    try {
      const record = JSON.parse(text)?.agent_result?.metadata?.interpreter;
      if (record && typeof record.trial === "string") out.push(record as RunRecord);
    } catch {
      // A trial whose result does not parse is left out, as `harbor view` leaves it out.
    }
  }
  return out.sort((a, b) => a.trial.localeCompare(b.trial));
}

/**
 * Harbor's job name form, `2026-12-02__16-40-05`; with `millis`, `…-05-123` (arenas may start
 * within one second).
 */
export function jobName(at: Date, opts: { millis?: boolean } = {}): string {
  const p = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}__` +
    `${p(at.getHours())}-${p(at.getMinutes())}-${p(at.getSeconds())}` +
    (opts.millis ? `-${p(at.getMilliseconds(), 3)}` : "");
}
