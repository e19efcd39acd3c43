/**
 * The one mapping from command-line flags to what the front ends run with: a `SessionConfig`
 * of typed values (with `-c key=value` read into key paths and values), and exec's own options.
 */
import { resolve } from "node:path";
import { type ConfigOverride, parseOverrideText } from "../config/mod.ts";
import { ConfigError, UsageError } from "../errors.ts";
import type { ExecOptions } from "../modes/exec/exec_options.ts";
import type { McpArgs } from "../modes/mcp_cli/mcp_args.ts";
import type { EvalCommand } from "../modes/eval/eval_args.ts";
import type { ExportArgs } from "../modes/export/export_args.ts";
import type { ResumeTarget, SessionConfig, SessionOrigin } from "../session/types.ts";
import type { ENTRY_MODULES } from "./entry_modules.ts";
import type { ExecFlags, Invocation, ResumeFlags, SharedFlags } from "./flags.ts";
import { resolveWorkdir } from "../session/workdir.ts";

/** The flag that means "no sandbox and no approvals", named as the origin of both values. */
const YOLO = "--yolo";

/** What to run: the front end, with its session config and its own options. */
export type Command =
  | {
    mode: "repl";
    prompt?: string;
    config: SessionConfig;
    pick?: { all?: boolean };
    /** Continue a copy of the saved session (`interpreter fork`). */
    fork?: boolean;
  }
  | { mode: "exec"; prompt?: string; config: SessionConfig; exec: ExecOptions }
  | { mode: "debug_config"; config: SessionConfig }
  | { mode: "debug_harness"; id: string; config: SessionConfig; tokens?: boolean }
  | { mode: "trust_changes"; cwd: string }
  | { mode: "trust"; cwd: string; yes: boolean }
  | { mode: "logout"; provider?: string }
  | { mode: "mcp"; mcp: McpArgs }
  | { mode: "mcp_server"; config: SessionConfig }
  | { mode: "acp"; config: SessionConfig }
  | { mode: "eval"; eval: EvalCommand }
  | { mode: "export"; export: ExportArgs }
  /**
   * A command that opens no session (`worktree`, `doctor`, `arena`): main.ts loads `module` when
   * it runs, by path as it loads every command's (entry_modules.ts), and hands it to `run`.
   */
  | { mode: "run"; module: keyof typeof ENTRY_MODULES; run(loaded: unknown): Promise<number> }
  | { mode: "done" };

/** The command an invocation asks for: flags mapped to a `SessionConfig` and options. */
export async function commandOf(invocation: Invocation): Promise<Command> {
  switch (invocation.mode) {
    case "done":
    case "logout":
    case "mcp":
    case "eval":
    case "export":
      return invocation;
    case "worktree": {
      const args = invocation.worktree;
      type Module = typeof import("../modes/worktree/worktree.ts");
      return runIn<Module>("worktree", (m) => m.runWorktree(args));
    }
    case "arena": {
      const { argv } = invocation;
      return runIn<typeof import("./arena_cli.ts")>("arena", (m) => m.runArenaCommand(argv));
    }
    case "doctor": {
      const args = invocation.options;
      return runIn<typeof import("../modes/doctor/doctor.ts")>("doctor", (m) => m.runDoctor(args));
    }
    case "repl": {
      const config = await sessionConfigOf(invocation.options, { origin: "repl" });
      return { mode: "repl", prompt: invocation.prompt, config };
    }
    case "resume": {
      // `interpreter resume --last` continues the newest REPL session; with neither, a picker.
      // `interpreter fork` does the same on a copy.
      const { target } = invocation;
      const resume = resumeTargetOf(target, "repl");
      const config = await sessionConfigOf(invocation.options, { origin: "repl", resume });
      const fork = invocation.fork ? { fork: true } : {};
      return { mode: "repl", config, ...fork, ...(resume ? {} : { pick: { all: target.all } }) };
    }
    case "exec": {
      const { options } = invocation;
      const resume = options.resume ? resumeTargetOf(options.resume) : undefined;
      const config = await sessionConfigOf(options, { origin: "exec", resume });
      return { mode: "exec", prompt: invocation.prompt, config, exec: execOptionsOf(options) };
    }
    case "debug_config":
      return { mode: "debug_config", config: await sessionConfigOf(invocation.options) };
    case "debug_harness": {
      const config = await sessionConfigOf(invocation.options);
      const tokens = invocation.tokens ? { tokens: true } : {};
      return { mode: "debug_harness", id: invocation.id, config, ...tokens };
    }
    case "trust_changes":
      return { mode: "trust_changes", cwd: await resolveWorkdir(invocation.options.cd) };
    case "trust": {
      const cwd = await resolveWorkdir(invocation.options.cd);
      return { mode: "trust", cwd, yes: invocation.options.yes === true };
    }
    case "mcp_server":
      return { mode: "mcp_server", config: await sessionConfigOf(invocation.options) };
    case "acp": {
      // `--login` (ACP terminal auth): the REPL, whose provider and key setup runs on a terminal.
      const origin = invocation.options.login ? "repl" : "acp";
      const opened = await sessionConfigOf(invocation.options, { origin });
      // The harness, model and effort a launcher sets in the environment, under the flags.
      const { withAcpEnv } = await import("./acp_env.ts");
      const config = withAcpEnv(opened, Deno.env.toObject());
      return origin === "repl" ? { mode: "repl", config } : { mode: "acp", config };
    }
  }
}

/** The `run` command of `module`, which `run` uses once main.ts has loaded it. */
function runIn<T>(
  module: keyof typeof ENTRY_MODULES,
  run: (loaded: T) => Promise<number>,
): Command {
  return { mode: "run", module, run: (loaded) => run(loaded as T) };
}

/** The session `flags` ask for, started from `origin`, continuing `resume` when given. */
async function sessionConfigOf(
  flags: SharedFlags,
  opts: { origin?: SessionOrigin; resume?: ResumeTarget } = {},
): Promise<SessionConfig> {
  const cwd = await resolveWorkdir(flags.cd);
  const config: SessionConfig = { cwd, ...typedValues(flags) };
  if (flags.yolo) {
    if (flags.sandbox && flags.sandbox !== "danger-full-access") {
      throw new ConfigError(`Cannot combine --yolo with --sandbox "${flags.sandbox}"`, {
        hint: "--yolo already means --sandbox danger-full-access; drop one of the two flags",
      });
    }
    config.sandbox = "danger-full-access";
    config.approval = "never";
    config.labels = { sandbox: YOLO, approval: YOLO };
  }
  // Read after the flags' own checks, as the config loader read them before.
  if (flags.config.length > 0) config.overrides = flags.config.map(parseOverrideText);
  const limits = limitOverrides(flags);
  if (limits.length > 0) config.overrides = [...config.overrides ?? [], ...limits];
  // The REPL looks for this origin before the config is read (lib/modes/repl/plain.ts).
  if (flags.plain) {
    const plain = { keyPath: ["plain"], value: true, origin: "--plain" };
    config.overrides = [...config.overrides ?? [], plain];
  }
  if (flags.ephemeral) config.ephemeral = true;
  if (flags.skipGitRepoCheck || flags.yolo) config.skipGitRepoCheck = true;
  if (flags.dangerouslyBypassDefinitionTrust) config.bypassDefinitionTrust = true;
  if (opts.origin) config.origin = opts.origin;
  if (opts.resume) config.resume = opts.resume;
  if (flags.worktree !== undefined) {
    if (opts.resume) {
      throw new UsageError("--worktree starts a new session; it cannot resume one", {
        hint: "Drop --worktree: a session made in a worktree is resumed there by itself",
      });
    }
    config.worktree = flags.worktree;
  }
  return config;
}

/** `--max-turns` and `--max-budget-usd` as config values over every file and `-c`. */
function limitOverrides(flags: SharedFlags): ConfigOverride[] {
  const out: ConfigOverride[] = [];
  const add = (key: string, flag: string, text: string | undefined, whole: boolean) => {
    if (text === undefined) return;
    const value = Number(text);
    if (text.trim() === "" || !(value > 0) || (whole && !Number.isInteger(value))) {
      const what = whole ? "a whole number of 1 or more" : "an amount in USD above 0";
      throw new UsageError(`${flag} takes ${what}, not "${text}"`, {
        hint: `For example ${flag} ${whole ? 20 : 0.5}`,
      });
    }
    out.push({ keyPath: [key], value, origin: `${flag} ${text}`, where: flag });
  };
  add("max_turn_steps", "--max-turns", flags.maxTurns, true);
  add("max_budget_usd", "--max-budget-usd", flags.maxBudgetUsd, false);
  return out;
}

/** The values of the flags that set one setting each. */
function typedValues(flags: SharedFlags): Omit<SessionConfig, "cwd"> {
  const out: Omit<SessionConfig, "cwd"> = {};
  if (flags.model) out.model = flags.model;
  if (flags.profile !== undefined) out.profile = flags.profile;
  if (flags.sandbox) out.sandbox = flags.sandbox;
  if (flags.askForApproval) out.approval = flags.askForApproval;
  if (flags.harness !== undefined) out.harness = flags.harness;
  if (flags.localProvider) out.oss = flags.localProvider;
  else if (flags.oss) out.oss = true;
  if (flags.addDir?.length) out.writableRoots = flags.addDir.map((dir) => resolve(dir));
  if (flags.chatCompletions) out.wireApi = "chat";
  return out;
}

/**
 * The saved session `resume`/`exec resume` flags name; undefined for `interpreter resume` with
 * neither (the picker). `origin` narrows `--last` to sessions started there.
 */
function resumeTargetOf(
  flags: ResumeFlags,
  origin?: SessionOrigin,
): ResumeTarget | undefined {
  if (flags.last) {
    return { last: true, ...(flags.all ? { all: true } : {}), ...(origin ? { origin } : {}) };
  }
  return flags.id !== undefined ? { id: flags.id } : undefined;
}

/** Exec's own options from its flags. */
function execOptionsOf(flags: ExecFlags): ExecOptions {
  return {
    json: Boolean(flags.json || flags.experimentalJson),
    images: flags.image ?? [],
    ...(flags.outputSchema !== undefined ? { outputSchema: flags.outputSchema } : {}),
    ...(flags.outputLastMessage !== undefined
      ? { outputLastMessage: flags.outputLastMessage }
      : {}),
    ...(flags.trajectory !== undefined ? { trajectory: flags.trajectory } : {}),
    ...(flags.review ? { review: flags.review } : {}),
    ...(flags.waitWakeups ? { waitWakeups: true } : {}),
  };
}
