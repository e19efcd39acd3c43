/**
 * Runs an eval job: plans it (or reads it back for `--resume`), asks before starting, runs the
 * trials `--jobs` at a time, and stops cleanly on Ctrl-C (runs in flight killed with their
 * process groups, their copies and trial folders removed).
 */
import { join, resolve } from "node:path";
import { UsageError, UserError } from "../../errors.ts";
import { type CopySource, copySource } from "./copies.ts";
import { EvalProgress } from "./progress.ts";
import { jobConfig, type JobPlan, jobResult, readRecords, type TrialPlan } from "./job_layout.ts";
import { writeJsonWhole } from "../../trajectory/write.ts";
import { planTrials } from "./plan.ts";
import { runTrial, type TrialContext } from "./trial.ts";
import type { RunRecord } from "./types.ts";

/** The file beside Harbor's `config.json` that holds eval's own plan. */
export const PLAN_FILE = "eval.json";

/** A job ready to run. */
export interface PreparedJob {
  plan: JobPlan;
  jobDir: string;
  /** Trials still to run. */
  trials: TrialPlan[];
  /** Records of trials finished before (a resume). */
  done: RunRecord[];
  source: CopySource;
  /** The estimated cost in USD, when the models' prices are known. */
  cost?: number;
}

/** How the job runs. */
export interface JobRunOptions {
  self: string[];
  keep: boolean;
  env: Record<string, string>;
  progress: (total: number, before: RunRecord[]) => EvalProgress;
}

/** What a finished (or stopped) job has. */
export interface JobOutcome {
  records: RunRecord[];
  interrupted: boolean;
  keptCopies?: string;
}

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
  await writeJsonWhole(join(jobDir, "config.json"), jobConfig(plan, resolve(jobDir, "..")));
}

/** Reads a job back for `--resume`: its plan, its finished runs, the trials left. */
export async function resumeJob(jobDir: string): Promise<PreparedJob> {
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
  const source = await copySource(plan.source, plan.withChanges);
  return { plan, jobDir, trials, done, source };
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

/** Runs the job's trials, `plan.jobs` at a time, until done or Ctrl-C. */
export async function runJob(job: PreparedJob, opts: JobRunOptions): Promise<JobOutcome> {
  const { plan, jobDir } = job;
  const stop = new AbortController();
  const onSignal = () => stop.abort(new DOMException("Interrupted", "AbortError"));
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  const copiesDir = await Deno.makeTempDir({ prefix: "interpreter-eval-" });
  const records = [...job.done];
  const total = records.length + job.trials.length;
  const progress = opts.progress(total, job.done);
  let running = 0;
  const ctx: TrialContext = {
    plan,
    jobDir,
    source: job.source,
    copiesDir,
    lock: mutex(),
    self: opts.self,
    execFlags: plan.execFlags,
    timeoutSec: plan.timeoutSec,
    keep: opts.keep,
    env: opts.env,
    signal: stop.signal,
  };
  const writeResult = (finishedAt?: string) =>
    writeJsonWhole(
      join(jobDir, "result.json"),
      jobResult(plan, records, { total, running, finishedAt }),
    );
  let fatal: unknown;
  const queue = [...job.trials];
  const worker = async () => {
    for (let trial = queue.shift(); trial && !stop.signal.aborted; trial = queue.shift()) {
      running++;
      try {
        const record = await runTrial(trial, ctx);
        records.push(record);
        progress.finished(record);
      } catch (error) {
        if (!stop.signal.aborted) {
          fatal ??= error;
          stop.abort(error);
        }
      } finally {
        running--;
      }
      await writeResult();
    }
  };
  try {
    await writeResult();
    await Promise.all(Array.from({ length: Math.max(1, plan.jobs) }, worker));
  } finally {
    progress.stop();
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    if (!opts.keep) await Deno.remove(copiesDir, { recursive: true }).catch(() => {});
  }
  if (fatal) throw fatal;
  const interrupted = stop.signal.aborted;
  await writeResult(interrupted ? undefined : new Date().toISOString());
  return { records, interrupted, ...(opts.keep ? { keptCopies: copiesDir } : {}) };
}

/** Runs the functions given to it one at a time. */
export function mutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}
