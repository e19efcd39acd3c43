/**
 * `interpreter eval`: one task (or a task file, or Harbor tasks) across harnesses × models ×
 * repetitions, each run in its own copy of the repository, then a report people can trust.
 * `eval report DIR` re-renders a job, `eval compare A B` puts two side by side.
 */
// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { join, resolve, sep } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline/promises";
import { configHome } from "../../config/load.ts";
import { UsageError } from "../../errors.ts";
import { type EvalArgs, type EvalCommand, execFlagsOf } from "./eval_args.ts";
import {
  type PreparedJob,
  prepareSource,
  readPlan,
  resumeJob,
  runJob,
  signalExitCode,
  startJob,
} from "./job.ts";
import { adHocTaskName, jobName, type JobPlan, readRecords } from "./job_layout.ts";
import { estimateCost, planModels, planPairs, planTrials, splitList } from "./plan.ts";
import { EvalProgress } from "./progress.ts";
import { writeOutputs } from "./outputs.ts";
import { renderReport } from "./report/terminal.ts";
import { colorWanted } from "../term/style.ts";
import { renderComparison } from "./report/compare.ts";
import { interpreterCommand } from "../../session/self_command.ts";
import type { EvalTask } from "./types.ts";

/** Runs an `eval` command; answers the exit code. */
export async function runEval(command: EvalCommand): Promise<number> {
  const env = Deno.env.toObject();
  const color = colorWanted(env, Deno.stdout.isTerminal());
  if (command.kind === "compare") {
    const [a, b] = command.dirs;
    await Promise.all([readPlan(a), readPlan(b)]);
    const [ra, rb] = await Promise.all([readRecords(a), readRecords(b)]);
    console.log(renderComparison({ label: a, records: ra }, { label: b, records: rb }, { color }));
    return 0;
  }
  if (command.kind === "report") {
    await readPlan(command.dir);
    const records = await readRecords(command.dir);
    console.log(renderReport(records, { color }));
    for (const line of await writeOutputs(command.dir, records, command)) console.error(line);
    const { reportRoutes } = await import("./report/routes.ts");
    for (const line of await reportRoutes(records, command.writeRoutes, env)) console.log(line);
    return 0;
  }
  return await runEvalJob(command.args, env, color);
}

async function runEvalJob(
  args: EvalArgs,
  env: Record<string, string>,
  color: boolean,
): Promise<number> {
  const job = args.resume ? await resumeJob(resolve(args.resume), env) : await planJob(args, env);
  if (!job) return 0;
  const interactive = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  if (!await confirm(job, { ask: interactive && !args.yes, resumed: Boolean(args.resume) })) {
    console.error("Nothing was run.");
    return 1;
  }
  if (!args.resume) await startJob(job.plan, job.jobDir);
  console.error(`Job folder: ${job.jobDir}`);
  const outcome = await runJob(job, {
    self: interpreterCommand(),
    keep: Boolean(args.keep),
    env,
    progress: (total, before) =>
      new EvalProgress(
        {
          write: (text) => Deno.stderr.writeSync(new TextEncoder().encode(text)),
          terminal: Deno.stderr.isTerminal(),
        },
        total,
        before,
      ),
  });
  console.log(renderReport(outcome.records, { color }));
  const { reportRoutes } = await import("./report/routes.ts");
  for (const line of await reportRoutes(outcome.records, false, env)) console.log(line);
  for (const line of await writeOutputs(job.jobDir, outcome.records, args)) console.error(line);
  if (outcome.keptCopies) {
    console.error(
      `Copies kept in ${outcome.keptCopies}` +
        (job.source.git ? " (clones of their own: remove the folder when done)" : ""),
    );
  }
  if (outcome.interrupted) {
    const total = job.done.length + job.trials.length;
    console.error(
      `Interrupted: ${outcome.records.length} of ${total} runs finished. ` +
        `Continue with: interpreter eval --resume ${job.jobDir}`,
    );
    return signalExitCode(outcome.signal);
  }
  console.error(
    `Open a run with interpreter resume <session id>; see it again with ` +
      `interpreter eval report ${job.jobDir}`,
  );
  return 0;
}

/** Plans a new job; undefined when `--harbor-config` printed the Harbor config instead. */
async function planJob(
  args: EvalArgs,
  env: Record<string, string>,
): Promise<PreparedJob | undefined> {
  const cwd = resolve(args.exec.cd ?? Deno.cwd());
  const planConfig = {
    cwd,
    env,
    overrides: args.exec.config,
    profile: args.exec.profile,
    oss: args.exec.oss,
    localProvider: args.exec.localProvider,
  };
  if (args.harborConfig) {
    const { printHarborConfig } = await import("./harbor_plan.ts");
    await printHarborConfig(args, planConfig);
    return undefined;
  }
  const models = await planModels(splitList(args.model ?? ""), planConfig);
  // The runs have no terminal to ask on: they use the local server the plan found.
  if (args.exec.oss && !args.exec.localProvider) {
    args = { ...args, exec: { ...args.exec, localProvider: models[0].provider } };
  }
  const pairs = await planPairs(args.harness ?? "fitting", models, planConfig);
  const tasks = await tasksOf(args, pairs[0], cwd);
  const withChanges = Boolean(args.withChanges);
  const execFlags = execFlagsOf(args.exec);
  const { source, checkEnv, uncommitted } = await prepareSource(
    { source: cwd, withChanges, execFlags, tasks },
    env,
  );
  if (uncommitted) {
    console.error(
      "note: the repository has uncommitted changes; each run starts from HEAD without them " +
        "(pass --with-changes to include them)",
    );
  }
  if (args.tasks && await isInside(args.tasks, source.root)) {
    console.error(
      `note: the tasks in "${resolve(args.tasks)}" come from the repository: the commands ` +
        "they name will run (sandboxed)",
    );
  }
  const started = new Date();
  const name = jobName(started);
  const plan: JobPlan = {
    id: crypto.randomUUID(),
    name,
    startedAt: started.toISOString(),
    tasks,
    harnesses: [...new Set(pairs.map((p) => p.harness))],
    models: models.map((m) => m.spec),
    pairs: pairs.map((p) => ({ harness: p.harness, model: p.model.spec })),
    repeat: args.repeat,
    jobs: args.jobs,
    source: cwd,
    withChanges,
    execFlags,
    timeoutSec: args.timeout,
  };
  const jobDir = resolve(args.out ?? join(configHome(env, cwd), "evals", name));
  const trials = planTrials(tasks, plan.pairs, args.repeat);
  const cost = estimateCost(trials, models);
  return {
    plan,
    jobDir,
    trials,
    done: [],
    source,
    checkEnv,
    ...(cost !== undefined ? { cost } : {}),
  };
}

async function tasksOf(
  args: EvalArgs,
  first: { harness: string; model: { spec: string } },
  cwd: string,
): Promise<EvalTask[]> {
  if (args.tasks) {
    if (args.task) {
      throw new UsageError("Give the task as an argument or with --tasks, not both", {
        hint: 'Either interpreter eval --check "CMD" "TASK" or interpreter eval --tasks FILE',
      });
    }
    const { loadTasks } = await import("./tasks.ts");
    return await loadTasks(args.tasks, { check: args.check, timeoutSec: undefined }, {
      model: first.model.spec,
      harness: first.harness,
    });
  }
  if (!args.task?.trim()) {
    throw new UsageError("No task to run", {
      hint: 'Give the task: interpreter eval --check "npm test" "fix the failing test", ' +
        "or a task file with --tasks FILE",
    });
  }
  if (!args.check) {
    throw new UsageError("No check: nothing would tell a pass from a fail", {
      hint:
        'Add --check "CMD", a command that exits 0 when the task is done (e.g. --check "npm test")',
    });
  }
  return [{ name: adHocTaskName(cwd), prompt: args.task, check: args.check }];
}

/** Says what will run (and its estimated cost); on a terminal asks to go on. */
async function confirm(
  job: PreparedJob,
  opts: { ask: boolean; resumed: boolean },
): Promise<boolean> {
  const { plan, trials } = job;
  const pairs = plan.pairs.length;
  const what = `${trials.length} run${trials.length === 1 ? "" : "s"}` +
    (opts.resumed
      ? ` left of ${trials.length + job.done.length}`
      : ` (${plan.tasks.length} task${plan.tasks.length === 1 ? "" : "s"} × ${pairs} ` +
        `harness×model pair${pairs === 1 ? "" : "s"} × ${plan.repeat} repetition` +
        `${plan.repeat === 1 ? "" : "s"})`);
  const cost = job.cost === undefined
    ? ""
    : `; estimated cost about $${job.cost.toFixed(2)} (at ~200k input and 10k output tokens a run)`;
  console.error(`${what}, ${plan.jobs} at a time${cost}`);
  if (trials.length === 0 || !opts.ask) return true;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question("Start? [Y/n] ")).trim().toLowerCase();
    return answer === "" || answer === "y" || answer === "yes";
  } finally {
    rl.close();
  }
}

/** Whether `path` lies in folder `root` (both by their real paths). */
async function isInside(path: string, root: string): Promise<boolean> {
  const [file, dir] = await Promise.all([Deno.realPath(path), Deno.realPath(root)]);
  return file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
