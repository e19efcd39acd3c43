/**
 * `interpreter eval [TASK]`, `eval report DIR` and `eval compare DIR1 DIR2`: their flags become
 * an `EvalCommand` here; numbers are checked before anything runs.
 */
import { type Command, Option } from "commander";
import { LOCAL_PROVIDERS } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import type { EvalArgs, EvalCommand, ExecPassThrough } from "../modes/eval/eval_args.ts";
import type { Invocation } from "./flags.ts";

/** `eval`'s flags as commander parses them: numbers as text, the exec flags beside the rest. */
type EvalFlags =
  & Omit<EvalArgs, "task" | "repeat" | "jobs" | "timeout" | "exec">
  & ExecPassThrough
  & { repeat: string; jobs: string; timeout: string };

const EXAMPLES = `
Examples:
  interpreter eval --harness native,claude-code,minimal --repeat 3 --check "npm test" "fix the failing test"
  interpreter eval --model gpt-5,qwen3-coder --harness fitting --jobs 2 --tasks tasks.toml
  interpreter eval --tasks path/to/harbor-tasks --harness fitting --yes
  interpreter eval report ~/.openinterpreter/evals/2026-12-02__16-40-05 --html report.html
  interpreter eval --harness claude-code,native -m anthropic/claude-sonnet-4-5 --harbor-config > job.yaml`;

/** Commander's collector of a repeatable option's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds the `eval` command group to `program`. */
export function addEvalCommand(program: Command, onInvoke: (inv: Invocation) => void): Command {
  const invoke = (command: EvalCommand) => onInvoke({ mode: "eval", eval: command });
  const cmd = program.command("eval")
    .description("run one task across harnesses and models, and report which works best")
    .argument("[task]", "the task given to every run")
    .option("--tasks <path>", "a TOML task file, a Harbor task folder, or a folder of them")
    .option("--harness <list>", "harnesses: a,b,… or all or fitting (default fitting)")
    .option("-m, --model <list>", "models: m1,m2,… (default: the configured model)")
    .option("--repeat <n>", "runs of each task × harness × model", "1")
    .option("--jobs <n>", "runs at once", "1")
    .option("--check <cmd>", "a command run sandboxed in the copy after the agent; exit 0 passes")
    .option("--timeout <seconds>", "the agent's time limit per run", "1800")
    .option("--out <dir>", "the job folder (default ~/.openinterpreter/evals/<time>)")
    .option("--with-changes", "copy the uncommitted changes into each copy too")
    .option("--keep", "keep each run's copy of the repository")
    .option("--json <file>", "write every run's record as JSON")
    .option("--html <file>", "write the report as one HTML page with each run's transcript")
    .option("--predictions <file>", "write SWE-bench predictions JSONL (each run's diff)")
    .option("--resume <dir>", "continue an interrupted job, skipping its finished runs")
    .option("-y, --yes", "start without asking")
    .option("--harbor-config", "print the Harbor job configuration (YAML) instead of running")
    .option("-c, --config <key=value>", "a config override for every run", collect, [])
    .option("--max-turns <n>", "each run's most model requests in a turn (max_turn_steps)")
    .option("--max-budget-usd <usd>", "each run's spending limit in USD (max_budget_usd)")
    .option("-p, --profile <name>", "use the [profiles.NAME] table of config.toml")
    .addOption(
      new Option("-s, --sandbox <mode>", "sandbox of every run's agent (checks: always bwrap)")
        .choices([
          "read-only",
          "workspace-write",
          "danger-full-access",
        ]),
    )
    .addOption(
      new Option("-a, --ask-for-approval <policy>", "approval policy of every run (default never)")
        .choices(["untrusted", "on-failure", "on-request", "never"]),
    )
    .option("--oss", "use a local model server (Ollama, LM Studio, llama.cpp or vLLM)")
    .addOption(
      new Option("--local-provider <provider>", "local provider for --oss").choices(
        LOCAL_PROVIDERS,
      ),
    )
    .option("--chat-completions", "talk to the provider over the Chat Completions API")
    .addOption(
      // Sets the exec pass-through's `dangerouslyBypassHookTrust`, the old name's attribute.
      new Option(
        "--dangerously-bypass-definition-trust",
        "run a trusted project's hooks and MCP servers without trust",
      ).implies({ dangerouslyBypassHookTrust: true }),
    )
    .addOption(new Option("--dangerously-bypass-hook-trust").hideHelp())
    .option("-C, --cd <dir>", "the repository to copy (default: the current directory)")
    .addHelpText("after", EXAMPLES)
    .action((task: string | undefined, flags: EvalFlags) => {
      invoke({ kind: "run", args: evalArgsOf(task, flags) });
    });
  cmd.command("report").description("re-render a finished or partly finished job")
    .argument("<dir>", "the job folder")
    .option("--json <file>", "write every run's record as JSON")
    .option("--html <file>", "write the report as one HTML page")
    .option("--predictions <file>", "write SWE-bench predictions JSONL")
    .option("--write-routes", "add the harness routes the job supports to config.toml")
    .action(
      (dir: string, flags: Omit<Extract<EvalCommand, { kind: "report" }>, "kind" | "dir">) => {
        invoke({ kind: "report", dir, ...flags });
      },
    );
  cmd.command("compare").description("put two jobs side by side")
    .argument("<dir1>", "the first job folder")
    .argument("<dir2>", "the second job folder")
    .action((a: string, b: string) => invoke({ kind: "compare", dirs: [a, b] }));
  return cmd;
}

function evalArgsOf(task: string | undefined, flags: EvalFlags): EvalArgs {
  if (flags.resume) checkResumeAlone(task, flags);
  return {
    task,
    tasks: flags.tasks,
    harness: flags.harness,
    model: flags.model,
    repeat: positive(flags.repeat, "--repeat"),
    jobs: positive(flags.jobs, "--jobs"),
    check: flags.check,
    timeout: positive(flags.timeout, "--timeout"),
    out: flags.out,
    withChanges: flags.withChanges,
    keep: flags.keep,
    json: flags.json,
    html: flags.html,
    predictions: flags.predictions,
    resume: flags.resume,
    yes: flags.yes,
    harborConfig: flags.harborConfig,
    exec: execPassThroughOf(flags),
  };
}

/** The flags each run's `exec` gets, as given. */
function execPassThroughOf(flags: ExecPassThrough): ExecPassThrough {
  const { config, profile, sandbox, askForApproval, oss, localProvider } = flags;
  const { chatCompletions, dangerouslyBypassHookTrust, cd, maxTurns, maxBudgetUsd } = flags;
  return {
    config,
    profile,
    sandbox,
    askForApproval,
    oss,
    localProvider,
    chatCompletions,
    dangerouslyBypassHookTrust,
    cd,
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}),
  };
}

/** A resumed job runs as it was planned: flags that would change the plan are refused. */
function checkResumeAlone(task: string | undefined, flags: EvalFlags): void {
  const planned: Array<[unknown, string]> = [
    [task, "a task"],
    [flags.tasks, "--tasks"],
    [flags.harness, "--harness"],
    [flags.model, "--model"],
    [flags.check, "--check"],
    [flags.out, "--out"],
    [flags.harborConfig, "--harbor-config"],
  ];
  const given = planned.filter(([value]) => value !== undefined).map(([, name]) => name);
  if (given.length > 0) {
    throw new UsageError(`--resume continues a job as it was planned; it takes no ${given[0]}`, {
      hint: "Run interpreter eval --resume DIR alone (with --yes, --json, --html or --keep)",
    });
  }
}

/** `text` as a whole number of 1 or more; a usage error naming `flag` (and `example`) if not. */
export function positive(text: string, flag: string, opts: { example?: number } = {}): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`${flag} takes a whole number of 1 or more, not "${text}"`, {
      hint: `For example ${flag} ${opts.example ?? 3}`,
    });
  }
  return n;
}
