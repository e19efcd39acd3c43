/** What `interpreter eval`, `eval report` and `eval compare` were asked, as the CLI parsed it. */

/** `interpreter eval [options] [TASK]`. */
export interface EvalArgs {
  /** The task text, when no `--tasks` is given. */
  task?: string;
  /** A TOML task file, a Harbor task folder, or a folder of them. */
  tasks?: string;
  /** `a,b`, `all` or `fitting` (the default). */
  harness?: string;
  /** `m1,m2`; none: the configured model. */
  model?: string;
  repeat: number;
  jobs: number;
  check?: string;
  /** The agent's time limit per run, in seconds. */
  timeout: number;
  out?: string;
  withChanges?: boolean;
  keep?: boolean;
  json?: string;
  html?: string;
  predictions?: string;
  resume?: string;
  yes?: boolean;
  /** Print the Harbor job configuration instead of running. */
  harborConfig?: boolean;
  /** Flags given to every run's `exec`. */
  exec: ExecPassThrough;
}

/** The `exec` flags eval passes on to each run. */
export interface ExecPassThrough {
  config: string[];
  profile?: string;
  sandbox?: string;
  askForApproval?: string;
  oss?: boolean;
  localProvider?: string;
  chatCompletions?: boolean;
  dangerouslyBypassHookTrust?: boolean;
  cd?: string;
  /** `--max-turns`, `--max-budget-usd`: each run's limits, as typed. */
  maxTurns?: string;
  maxBudgetUsd?: string;
}

/** What the `eval` command group asked for. */
export type EvalCommand =
  | { kind: "run"; args: EvalArgs }
  | {
    kind: "report";
    dir: string;
    json?: string;
    html?: string;
    predictions?: string;
    /** Add the routes the job supports to `[harness_routes]` in the user's config.toml. */
    writeRoutes?: boolean;
  }
  | { kind: "compare"; dirs: [string, string] };

/** The flags of `exec` for `pass`, approval `never` unless given. */
export function execFlagsOf(pass: ExecPassThrough): string[] {
  const flags = pass.config.flatMap((c) => ["-c", c]);
  if (pass.profile) flags.push("--profile", pass.profile);
  if (pass.sandbox) flags.push("--sandbox", pass.sandbox);
  flags.push("--ask-for-approval", pass.askForApproval ?? "never");
  if (pass.oss) flags.push("--oss");
  if (pass.localProvider) flags.push("--local-provider", pass.localProvider);
  if (pass.chatCompletions) flags.push("--chat-completions");
  if (pass.dangerouslyBypassHookTrust) flags.push("--dangerously-bypass-definition-trust");
  if (pass.maxTurns !== undefined) flags.push("--max-turns", pass.maxTurns);
  if (pass.maxBudgetUsd !== undefined) flags.push("--max-budget-usd", pass.maxBudgetUsd);
  return flags;
}
