/**
 * `interpreter arena PROMPT`: the prompt runs once per harness × model pair at the same time, each
 * in eval's own copy of the repository with its uncommitted changes; then a table side by side,
 * and the chosen contestant's patch goes into the working tree. The job folder is an eval job
 * folder (`interpreter eval report DIR` reads it).
 */
// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join, resolve } from "node:path";
import { configHome } from "../../../config/load.ts";
import { UserError } from "../../../errors.ts";
import { openEvalGit } from "../../../session/eval_sandboxes.ts";
import { interpreterCommand } from "../../../session/self_command.ts";
import { colorWanted } from "../../term/style.ts";
import { execFlagsOf } from "../eval_args.ts";
import { prepareSource, signalExitCode, startJob } from "../job.ts";
import { adHocTaskName, jobName, type JobPlan } from "../job_layout.ts";
import { estimateCost, planModels, planPairs, planTrials, splitList } from "../plan.ts";
import type { EvalTask } from "../types.ts";
import type { ArenaArgs } from "./arena_args.ts";
import { finishArena } from "./arena_finish.ts";
import { runContestants } from "./arena_run.ts";
import { contestantsOf, type PlannedArena, requireContestant } from "./plan.ts";

/** Runs an arena; answers the exit code. */
export async function runArena(args: ArenaArgs): Promise<number> {
  const env = Deno.env.toObject();
  const arena = await planArena(args, env);
  const { job, contestants } = arena;
  await startJob(job.plan, job.jobDir);
  const cost = job.cost === undefined ? "" : `; estimated cost about $${job.cost.toFixed(2)}`;
  console.error(`${contestants.length} contestants at once${cost}. Job folder: ${job.jobDir}`);
  const color = colorWanted(env, Deno.stdout.isTerminal());
  const outcome = await runContestants(arena, {
    self: interpreterCommand(),
    env,
    color: colorWanted(env, Deno.stderr.isTerminal()),
  });
  if (outcome.interrupted) {
    console.error(`Interrupted: nothing was applied. The runs so far are in ${job.jobDir}`);
    return signalExitCode(outcome.signal);
  }
  return await finishArena(arena, outcome.records, { args, env, color });
}

/** Plans the arena: contestants, the source copied, the job; refuses what cannot work. */
async function planArena(args: ArenaArgs, env: Record<string, string>): Promise<PlannedArena> {
  const cwd = resolve(args.exec.cd ?? Deno.cwd());
  const planConfig = { cwd, env, overrides: args.exec.config, profile: args.exec.profile };
  const models = await planModels(splitList(args.model ?? ""), planConfig);
  const pairs = await planPairs(args.harness ?? "fitting", models, planConfig);
  const contestants = contestantsOf(
    pairs.map((p) => ({ harness: p.harness, model: p.model.spec })),
  );
  if (args.pick?.kind === "one") requireContestant(args.pick.which, contestants);
  const execFlags = execFlagsOf(args.exec);
  const tasks: EvalTask[] = [
    { name: adHocTaskName(cwd), prompt: args.prompt, ...(args.check ? { check: args.check } : {}) },
  ];
  const { source, checkEnv } = await prepareSource(
    { source: cwd, withChanges: true, execFlags, tasks },
    env,
  ).catch(async (error) => {
    throw await isOutsideGit(cwd, env) ? outsideGitError(cwd) : error;
  });
  const started = new Date();
  const name = jobName(started, { millis: true });
  const plan: JobPlan = {
    id: crypto.randomUUID(),
    name,
    startedAt: started.toISOString(),
    tasks,
    harnesses: [...new Set(contestants.map((c) => c.harness))],
    models: models.map((m) => m.spec),
    pairs: contestants.map((c) => ({ harness: c.harness, model: c.model })),
    repeat: 1,
    jobs: contestants.length,
    source: cwd,
    withChanges: true,
    execFlags,
    timeoutSec: args.timeout,
  };
  const arenaHome = join(configHome(env, cwd), "arena");
  const jobDir = resolve(args.out ?? join(arenaHome, name));
  const trials = planTrials(tasks, plan.pairs, 1);
  const byTrial = new Map(trials.map((t, i) => [t.name, contestants[i]]));
  const cost = estimateCost(trials, models);
  const job = { plan, jobDir, trials, done: [], source, checkEnv, ...(cost ? { cost } : {}) };
  return { job, contestants, byTrial, arenaHome, cwd };
}

/** Whether `cwd` lies outside any git repository (asked only after eval refused the folder). */
async function isOutsideGit(cwd: string, env: Record<string, string>): Promise<boolean> {
  try {
    await using git = await openEvalGit({ env: { PATH: env.PATH ?? "/usr/bin:/bin" } });
    return await git.repositoryTop(cwd) === undefined;
  } catch {
    return false;
  }
}

function outsideGitError(cwd: string): UserError {
  return new UserError(
    `"${cwd}" is not in a git repository: the arena brings each contestant's changes back ` +
      "as a git patch",
    {
      hint: "Run it in a git repository (git init, then commit), or compare with interpreter eval",
    },
  );
}
