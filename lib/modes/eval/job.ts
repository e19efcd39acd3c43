/**
 * Runs an eval job: plans it (or reads it back for `--resume`), asks before starting, runs the
 * trials `--jobs` at a time, and stops cleanly on Ctrl-C, SIGTERM or SIGHUP (runs in flight
 * killed with their process groups, their copies and trial folders removed).
 */
import { join, resolve } from "node:path";
import { UsageError, UserError } from "../../errors.ts";
import { openEvalGit } from "../../session/eval_sandboxes.ts";
import { checkEnvironment, requireBubblewrap } from "./check_sandbox.ts";
import { type CopySource, copySource, hasUncommittedChanges } from "./copies.ts";
import { resolveVerifierEnv } from "./harbor_tasks.ts";
import type { EvalProgress } from "./progress.ts";
import { jobConfig, type JobPlan, jobResult, readRecords, type TrialPlan } from "./job_layout.ts";
import { writeJsonWhole } from "../../trajectory/write.ts";
import { planTrials } from "./plan.ts";
import { runTrial, type TrialContext, type TrialHooks } from "./trial.ts";
import type { RunRecord } from "./types.ts";

/** The file beside Harbor's `config.json` that holds eval's own plan. */
const PLAN_FILE = "eval.json";

/** A job ready to run. */
export interface PreparedJob {
  plan: JobPlan;
  jobDir: string;
  /** Trials still to run. */
  trials: TrialPlan[];
  /** Records of trials finished before (a resume). */
  done: RunRecord[];
  source: CopySource;
  /** The environment of setups and checks (`checkEnvironment()`). */
  checkEnv: Record<string, string>;
  /** The estimated cost in USD, when the models' prices are known. */
  cost?: number;
}

/** How the job runs. */
export interface JobRunOptions {
  self: string[];
  keep: boolean;
  env: Record<string, string>;
  progress: (total: number, before: RunRecord[]) => Pick<EvalProgress, "finished" | "stop">;
  /** Watchers of each trial (the arena's status lines). */
  hooks?: TrialHooks;
}

/** What a finished (or stopped) job has. */
export interface JobOutcome {
  records: RunRecord[];
  interrupted: boolean;
  /** The signal that stopped the job, when one did. */
  signal?: Deno.Signal;
  keptCopies?: string;
}

/** 128 plus the number of the signal that stopped the job, as a shell reports it. */
export function signalExitCode(signal: Deno.Signal | undefined): number {
  return 128 + (signal === "SIGHUP" ? 1 : signal === "SIGTERM" ? 15 : 2);
}

/** The signals that stop a job cleanly. */
const STOP_SIGNALS: Deno.Signal[] = Deno.build.os === "windows"
  ? ["SIGINT"]
  : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Writes a new job's plan and config; the job folder must be new or empty. */
export async function startJob(plan: JobPlan, jobDir: string): Promise<void> {
  const entries = await Array.fromAsync(Deno.readDir(jobDir)).catch(() => []);
  if (entries.length > 0) {
    throw new UsageError(`"${jobDir}" is not empty`, {
      hint: `Continue that job with interpreter eval --resume ${jobDir}, or choose another --out`,
    });
  }
  await Deno.mkdir(jobDir, { recursive: true });
  await writeJsonWhole(join(jobDir, PLAN_FILE), plan);
  await writeJsonWhole(join(jobDir, "config.json"), jobConfig(plan, resolve(jobDir)));
}

/**
 * What every job needs before it runs: bubblewrap (eval refuses to start without it), the
 * environment of its setups and checks, and the source its copies are made from.
 */
export async function prepareSource(
  plan: Pick<JobPlan, "source" | "withChanges" | "execFlags" | "tasks">,
  env: Record<string, string>,
): Promise<{ source: CopySource; checkEnv: Record<string, string>; uncommitted: boolean }> {
  await requireBubblewrap(env);
  const checkEnv = await checkEnvironment(plan.source, { env, execFlags: plan.execFlags });
  for (const task of plan.tasks) resolveVerifierEnv(task, checkEnv);
  await using git = await openEvalGit({ env: checkEnv });
  const source = await copySource(plan.source, plan.withChanges, git);
  return { source, checkEnv, uncommitted: await hasUncommittedChanges(source, git) };
}

/** Reads a job back for `--resume`: its plan, its finished runs, the trials left. */
export async function resumeJob(jobDir: string, env: Record<string, string>): Promise<PreparedJob> {
  const plan = await readPlan(jobDir);
  const done = await readRecords(jobDir);
  const finished = new Set(done.map((r) => r.trial));
  // Folders of trials that never finished are removed; their runs start again.
  for await (const entry of Deno.readDir(jobDir)) {
    if (entry.isDirectory && !finished.has(entry.name) && !entry.name.startsWith(".")) {
      await Deno.remove(join(jobDir, entry.name), { recursive: true });
    }
  }
  const key = (r: { task: string; harness: string; model: string; attempt: number }) =>
    `${r.task}\0${r.harness}\0${r.model}\0${r.attempt}`;
  const have = new Set(done.map(key));
  const all = planTrials(plan.tasks, plan.pairs, plan.repeat);
  const trials = all.filter((t) => !have.has(key({ ...t, task: t.task.name })));
  const { source, checkEnv } = await prepareSource(plan, env);
  return { plan, jobDir, trials, done, source, checkEnv };
}

/** Reads a job folder's plan, with an error that says what the folder is missing. */
export async function readPlan(jobDir: string): Promise<JobPlan> {
  const file = join(jobDir, PLAN_FILE);
  try {
    return JSON.parse(await Deno.readTextFile(file)) as JobPlan;
  } catch (error) {
    throw new UserError(`"${jobDir}" is not an eval job folder: cannot read ${PLAN_FILE}`, {
      hint:
        "Pass the folder eval printed when it started (default ~/.openinterpreter/evals/<time>)",
      cause: error,
    });
  }
}

/** Runs the job's trials, `plan.jobs` at a time, until done or a stop signal. */
export async function runJob(job: PreparedJob, opts: JobRunOptions): Promise<JobOutcome> {
  const { plan, jobDir } = job;
  const stop = stopOnSignals();
  const copiesDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "interpreter-eval-" }));
  const records = [...job.done];
  const total = records.length + job.trials.length;
  const progress = opts.progress(total, job.done);
  const running = { count: 0 };
  const writeResult = (finishedAt?: string) =>
    writeJsonWhole(
      join(jobDir, "result.json"),
      jobResult(plan, records, { total, running: running.count, finishedAt }),
    );
  let fatal: unknown;
  try {
    await using git = await openEvalGit({ env: job.checkEnv, writableRoot: copiesDir });
    const ctx: TrialContext = {
      plan,
      jobDir,
      source: job.source,
      copiesDir,
      git,
      self: opts.self,
      execFlags: plan.execFlags,
      timeoutSec: plan.timeoutSec,
      keep: opts.keep,
      env: opts.env,
      checkEnv: job.checkEnv,
      signal: stop.controller.signal,
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
    };
    await writeResult();
    const queue = [...job.trials];
    const worker = async () => {
      for (let trial = queue.shift(); trial && !ctx.signal.aborted; trial = queue.shift()) {
        running.count++;
        try {
          const record = await runTrial(trial, ctx);
          records.push(record);
          progress.finished(record);
        } catch (error) {
          if (!ctx.signal.aborted) {
            fatal ??= error;
            stop.controller.abort(error);
          }
        } finally {
          running.count--;
        }
        await writeResult();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, plan.jobs) }, worker));
  } finally {
    if (!opts.keep) await Deno.remove(copiesDir, { recursive: true }).catch(() => {});
    // Only now that the copies are gone may a second signal end eval at once.
    stop.remove();
    progress.stop();
  }
  if (fatal) throw fatal;
  const interrupted = stop.controller.signal.aborted;
  await writeResult(interrupted ? undefined : new Date().toISOString());
  return {
    records,
    interrupted,
    ...(stop.by() ? { signal: stop.by() } : {}),
    ...(opts.keep ? { keptCopies: copiesDir } : {}),
  };
}

/** An abort controller that the stop signals abort; `remove()` stops listening. */
function stopOnSignals() {
  const controller = new AbortController();
  let by: Deno.Signal | undefined;
  const removers = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      by ??= signal;
      controller.abort(new DOMException("Interrupted", "AbortError"));
    };
    Deno.addSignalListener(signal, listener);
    return () => Deno.removeSignalListener(signal, listener);
  });
  return {
    controller,
    by: () => by,
    remove: () => removers.forEach((remove) => remove()),
  };
}
