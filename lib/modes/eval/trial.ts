/**
 * One eval run, start to end: a fresh copy, the task's setup, the agent (`interpreter exec` in
 * its own process group, as a user would run it), the diff, the check, and the trial folder in
 * Harbor's layout. The setup and the check run in the sandbox (`check_sandbox.ts`), never on the
 * host: they run what the agent left in the copy. The trial's `result.json` is written last: a trial folder without one is an
 * unfinished run that `--resume` runs again.
 */
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { emptyRunCounts, type RunCounts, runCountsOf } from "../../trajectory/run_counts.ts";
import { runToEnd } from "../../session/run_to_end.ts";
import type { EvalGit } from "../../session/eval_sandboxes.ts";
import { runSandboxed } from "./check_sandbox.ts";
import { type Copy, type CopySource, diffOf, makeCopy, removeCopy } from "./copies.ts";
import { resolveVerifierEnv } from "./harbor_tasks.ts";
import {
  type JobPlan,
  trialConfig,
  type TrialPlan,
  trialResult,
  type TrialTimes,
} from "./job_layout.ts";
import { writeJsonWhole } from "../../trajectory/write.ts";
import { TRUST_SOURCE_ENV } from "../../session/trust.ts";
import type { RunRecord, RunStatus } from "./types.ts";
import { runCheck } from "./verifier.ts";

/** What every run of a job shares. */
export interface TrialContext {
  plan: JobPlan;
  jobDir: string;
  source: CopySource;
  /** Where copies are made (a temp folder of the job). */
  copiesDir: string;
  /** Runs git in the sandbox that may write only the copies folder. */
  git: EvalGit;
  /** How to start `interpreter` and the flags every run's `exec` gets. */
  self: string[];
  execFlags: string[];
  /** Agent time limit when the task sets none, in seconds. */
  timeoutSec: number;
  keep: boolean;
  /** The agent's environment (eval's own). */
  env: Record<string, string>;
  /** The environment of setups and checks: filtered as for the agent's commands. */
  checkEnv: Record<string, string>;
  signal: AbortSignal;
  /** Watchers of each trial's progress (the arena's status lines). */
  hooks?: TrialHooks;
}

/** What a trial is doing now. */
export type TrialPhase = "copying" | "running" | "checking";

/** Optional watchers of a trial, and how a task without a check is treated. */
export interface TrialHooks {
  phase?: (trial: TrialPlan, phase: TrialPhase) => void;
  /** The agent's `exec --json` stdout as it arrives. */
  agentOutput?: (trial: TrialPlan, text: string) => void;
  /** A task without a check gets no check at all (reward unknown) instead of a pass. */
  skipMissingCheck?: boolean;
}

/** A run that cannot work for any trial (a config error): the whole eval stops with it. */
class FatalRunError extends UserError {}

const GRACE_MS = 5000;
const DEFAULT_CHECK_TIMEOUT_SEC = 600;

/** Runs `trial`; its record, also written to the trial's `result.json`. */
export async function runTrial(trial: TrialPlan, ctx: TrialContext): Promise<RunRecord> {
  const dir = join(ctx.jobDir, trial.name);
  await Deno.mkdir(join(dir, "agent"), { recursive: true });
  await Deno.mkdir(join(dir, "verifier"), { recursive: true });
  await writeJsonWhole(join(dir, "config.json"), trialConfig(trial, ctx.plan, ctx.jobDir));
  const started = new Date();
  const copyDir = join(ctx.copiesDir, trial.name);
  try {
    ctx.hooks?.phase?.(trial, "copying");
    const copy = await makeCopy(ctx.source, copyDir, ctx.git);
    const record = await runInCopy(trial, copy, ctx, started);
    if (ctx.signal.aborted) throw ctx.signal.reason;
    return record;
  } catch (error) {
    // An unfinished trial leaves nothing behind: --resume runs it again.
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  } finally {
    if (!ctx.keep) await removeCopy({ dir: copyDir });
  }
}

async function runInCopy(
  trial: TrialPlan,
  copy: Copy,
  ctx: TrialContext,
  started: Date,
): Promise<RunRecord> {
  const dir = join(ctx.jobDir, trial.name);
  const setup = trial.task.setup ? await runSetup(trial.task.setup, copy, ctx) : undefined;
  const times: TrialTimes = { setup: span(started, new Date()) };
  if (setup) return await finish(trial, ctx, { started, times, status: "error", error: setup });
  const agentStart = new Date();
  const agent = await runAgent(trial, copy, ctx);
  times.agent = span(agentStart, new Date());
  const diff = await diffOf(copy, ctx.git);
  if (diff?.patch) await Deno.writeTextFile(join(dir, "agent", "patch.diff"), diff.patch);
  const checkStart = new Date();
  const unchecked = ctx.hooks?.skipMissingCheck && !trial.task.check && !trial.task.harborDir;
  if (!unchecked) ctx.hooks?.phase?.(trial, "checking");
  const check = unchecked ? { reward: null, error: undefined } : await runCheck(
    { command: trial.task.check, harborDir: trial.task.harborDir },
    {
      workdir: copy.workdir,
      writable: [copy.dir, copy.home],
      verifierDir: join(dir, "verifier"),
      timeoutSec: trial.task.checkTimeoutSec ?? DEFAULT_CHECK_TIMEOUT_SEC,
      network: trial.task.network ?? false,
      env: { ...copyEnv(copy, ctx), ...resolveVerifierEnv(trial.task, ctx.checkEnv) },
      signal: ctx.signal,
    },
  );
  times.verifier = span(checkStart, new Date());
  return await finish(trial, ctx, {
    started,
    times,
    ...agent,
    reward: check.reward,
    error: agent.error ?? check.error,
    diff: diff ? { files: diff.files, added: diff.added, deleted: diff.deleted } : null,
  });
}

/** Runs the task's setup in the copy's sandbox, the network on (it fetches dependencies). */
async function runSetup(command: string, copy: Copy, ctx: TrialContext) {
  const out = await runSandboxed({
    argv: ["sh", "-c", command],
    cwd: copy.workdir,
    writable: [copy.dir, copy.home],
    network: true,
    env: copyEnv(copy, ctx),
    timeoutMs: DEFAULT_CHECK_TIMEOUT_SEC * 1000,
    signal: ctx.signal,
  });
  if (out.code === 0) return undefined;
  return `The setup command exited ${out.code}: ${lastLine(out.stderr || out.stdout)}`;
}

/** The environment of the copy's setup and check: HOME is the copy's own (caches go there). */
function copyEnv(copy: Copy, ctx: TrialContext): Record<string, string> {
  return { ...ctx.checkEnv, HOME: copy.home };
}

/** What the agent's run left: its status, counts and totals from the trajectory. */
interface AgentOutcome {
  status: RunStatus;
  error?: string;
  counts?: RunCounts;
  sessionId: string | null;
  tokens: RunRecord["tokens"];
  cost: number | null;
  provider: string | null;
  harnessHash: string | null;
}

async function runAgent(trial: TrialPlan, copy: Copy, ctx: TrialContext): Promise<AgentOutcome> {
  const dir = join(ctx.jobDir, trial.name, "agent");
  const trajectoryFile = join(dir, "trajectory.json");
  const [program, ...pre] = ctx.self;
  const args = [
    ...pre,
    "exec",
    "--json",
    "--trajectory",
    trajectoryFile,
    "--harness",
    trial.harness,
    "--model",
    trial.model,
    ...ctx.execFlags,
    ...(ctx.source.git ? [] : ["--skip-git-repo-check"]),
    "--cd",
    copy.workdir,
    "-",
  ];
  const timeoutSec = trial.task.timeoutSec ?? ctx.timeoutSec;
  ctx.hooks?.phase?.(trial, "running");
  const output = ctx.hooks?.agentOutput;
  const out = await runToEnd(program, args, {
    cwd: copy.workdir,
    // The copy is trusted as its source is: the user decided about that repository.
    env: { ...ctx.env, [TRUST_SOURCE_ENV]: ctx.source.root },
    stdin: trial.task.prompt,
    timeoutMs: timeoutSec * 1000,
    graceMs: GRACE_MS,
    signal: ctx.signal,
    ...(output ? { onStdout: (text: string) => output(trial, text) } : {}),
  });
  await Deno.writeTextFile(join(dir, "interpreter.jsonl"), out.stdout);
  await Deno.writeTextFile(join(dir, "stderr.txt"), out.stderr);
  const trajectory = await readJson(trajectoryFile);
  if (!trajectory && out.code === 2 && !ctx.signal.aborted) {
    throw new FatalRunError(
      `The run of ${trial.harness} × ${trial.model} stopped before its first request: ` +
        lastLine(out.stderr.replace(/\nhint:[^\n]*\s*$/, "")).replace(/^error: /, ""),
      { hint: hintOf(out.stderr) ?? "Run the same task with interpreter exec to see why" },
    );
  }
  return outcomeOf(trajectory, out, timeoutSec);
}

function outcomeOf(
  trajectory: Record<string, unknown> | undefined,
  out: { code: number; stdout: string; stderr: string; timedOut: boolean },
  timeoutSec: number,
): AgentOutcome {
  const final = (trajectory?.final_metrics ?? {}) as Record<string, unknown>;
  const extra = (final.extra ?? {}) as Record<string, unknown>;
  const agentExtra = ((trajectory?.agent as Record<string, unknown>)?.extra ?? {}) as Record<
    string,
    unknown
  >;
  const runStatus = String(extra.run_status ?? "error");
  const status: RunStatus = out.timedOut
    ? "timeout"
    : (["completed", "failed", "step_limit", "budget_limit", "repeated_call", "aborted"].includes(
        runStatus,
      )
      ? runStatus as RunStatus
      : "error");
  const error = out.timedOut
    ? `The agent ran past its time limit of ${timeoutSec} s`
    : status === "completed"
    ? undefined
    : lastLine(out.stderr) || (trajectory?.notes as string | undefined) || `exit code ${out.code}`;
  return {
    status,
    ...(error ? { error } : {}),
    counts: runCountsOf(trajectory),
    sessionId: (trajectory?.session_id as string | undefined) ?? threadId(out.stdout),
    tokens: {
      input: Number(final.total_prompt_tokens ?? 0),
      output: Number(final.total_completion_tokens ?? 0),
      cached: Number(final.total_cached_tokens ?? 0),
    },
    cost: typeof final.total_cost_usd === "number" ? final.total_cost_usd : null,
    provider: typeof agentExtra.provider === "string" ? agentExtra.provider : null,
    harnessHash: typeof agentExtra.harness_hash === "string" ? agentExtra.harness_hash : null,
  };
}

async function finish(
  trial: TrialPlan,
  ctx: TrialContext,
  run: Partial<AgentOutcome> & {
    started: Date;
    times: TrialTimes;
    status: RunStatus;
    reward?: number | null;
    diff?: RunRecord["diff"];
  },
): Promise<RunRecord> {
  const finished = new Date();
  const seconds = (t?: { started_at: string; finished_at: string }) =>
    t ? (Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000 : 0;
  const counts = run.counts ?? emptyRunCounts();
  const reward = run.reward ?? null;
  const record: RunRecord = {
    trial: trial.name,
    task: trial.task.name,
    harness: trial.harness,
    model: trial.model,
    provider: run.provider ?? null,
    attempt: trial.attempt,
    passed: reward !== null && reward >= 1,
    reward,
    status: run.status,
    error: run.error ?? null,
    ...counts,
    tokens: run.tokens ?? { input: 0, output: 0, cached: 0 },
    cost_usd: run.cost ?? null,
    time_sec: {
      setup: seconds(run.times.setup),
      agent: seconds(run.times.agent),
      check: seconds(run.times.verifier),
      total: (finished.getTime() - run.started.getTime()) / 1000,
    },
    diff: run.diff ?? null,
    session_id: run.sessionId ?? null,
    harness_hash: run.harnessHash ?? null,
    started_at: run.started.toISOString(),
    finished_at: finished.toISOString(),
  };
  const result = await trialResult(record, { ...ctx, trial, times: run.times });
  await writeJsonWhole(join(ctx.jobDir, trial.name, "result.json"), result);
  return record;
}

function span(start: Date, end: Date) {
  return { started_at: start.toISOString(), finished_at: end.toISOString() };
}

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}

/** The session id of exec's `thread.started` event. */
function threadId(stdout: string): string | null {
  const match = stdout.match(/"type":"thread\.started","thread_id":"([^"]+)"/);
  return match ? match[1] : null;
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter((l) => !l.startsWith("hint:")).at(-1)?.trim() ?? "";
}

function hintOf(stderr: string): string | undefined {
  return stderr.match(/^hint: (.*)$/m)?.[1];
}
