import { Command, CommanderError, Option } from "commander";
import { LOCAL_PROVIDERS } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import { addExecFlags, addExecResume, mergeOptions } from "./exec_cli.ts";
import { addEvalCommand } from "./eval_cli.ts";
import { addExportCommand } from "./export_cli.ts";
import { addForkCommand } from "./fork_cli.ts";
import { addMcpCommand, mcpUsageHint } from "./mcp_cli.ts";
import { addMcpServerCommand } from "./mcp_server_cli.ts";
import { checkMistypedCommand, helpArgv } from "./help.ts";
import type { ExecFlags, Invocation, SharedFlags } from "./flags.ts";
import type { ReviewArgs } from "../modes/exec/exec_options.ts";

export type { ExecFlags, Invocation, ResumeFlags, SharedFlags } from "./flags.ts";
export { type Command, commandOf } from "./session_config.ts";

const PLAIN_HELP = "accessible plain output: no redraws or colors, role labels, numbered choices";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function addSharedFlags(cmd: Command): Command {
  return cmd
    .option("-m, --model <model>", "model id to use")
    .option("--oss", "use a local model server (Ollama, LM Studio, llama.cpp or vLLM)")
    .addOption(
      new Option("--local-provider <provider>", "local provider for --oss").choices(
        LOCAL_PROVIDERS,
      ),
    )
    .option("-p, --profile <name>", "use the [profiles.NAME] table of config.toml")
    .addOption(
      new Option("-s, --sandbox <mode>", "sandbox for model-run commands").choices([
        "read-only",
        "workspace-write",
        "danger-full-access",
      ]),
    )
    .addOption(
      new Option("-a, --ask-for-approval <policy>", "when to ask before running a command")
        .choices(["untrusted", "on-failure", "on-request", "never"]),
    )
    .option("--yolo", "no sandbox and no approvals (dangerous)")
    .option("-c, --config <key=value>", "override a config value (TOML value)", collect, [])
    .option("-C, --cd <dir>", "working directory for the agent")
    .option("--add-dir <dir>", "an extra writable directory (repeatable)", collect, [])
    .option("--chat-completions", "talk to the provider over the Chat Completions API")
    .option("--skip-git-repo-check", "allow running outside a git repository")
    .option(
      "--dangerously-bypass-definition-trust",
      "run a trusted project's hooks and MCP servers without trusting each definition " +
        "(for automation)",
    )
    .addOption(
      new Option("--dangerously-bypass-hook-trust").hideHelp()
        .implies({ dangerouslyBypassDefinitionTrust: true }),
    )
    .option("--harness <id>", "harness to present to the model (default: automatic)")
    .option("--max-turns <n>", "most model requests in one turn (max_turn_steps)")
    .option("--max-budget-usd <usd>", "stop when the session has spent this (max_budget_usd)")
    .option("--verbose", "show stack traces and causes of errors");
}

/** `--worktree [NAME]` (the REPL and exec): the session starts in a new git worktree. */
function addWorktreeFlag(cmd: Command): Command {
  return cmd.option("--worktree [name]", "start in a new git worktree (write --worktree=NAME)");
}

/** `worktree list|remove` and `doctor`; returns the `worktree` group. */
function addWorktreeCommands(program: Command, onInvoke: (inv: Invocation) => void): Command {
  const group = program.command("worktree").description("list or remove session worktrees");
  group.command("list").description("this repository's session worktrees and their state")
    .option("-C, --cd <dir>", "the repository").option("--json", "print a JSON array")
    .action(({ cd, json }: { cd?: string; json?: boolean }) =>
      onInvoke({ mode: "worktree", worktree: { command: "list", cd, json: !!json } })
    );
  group.command("remove").description("remove a session worktree and its branch")
    .argument("<name>", "its name, as worktree list shows it")
    .option("-C, --cd <dir>", "the repository")
    .option("--force", "remove it even with uncommitted files or commits of its own")
    .action((name: string, { cd, force }: { cd?: string; force?: boolean }) =>
      onInvoke({ mode: "worktree", worktree: { command: "remove", name, cd, force: !!force } })
    );
  program.command("doctor").description("check what sessions need, and name the fixes")
    .option("-C, --cd <dir>", "the project").option("--json", "print one JSON object")
    .action(({ cd, json }: { cd?: string; json?: boolean }) =>
      onInvoke({ mode: "doctor", options: { cd, json: !!json } })
    );
  return group;
}

/** Builds the command tree; `onInvoke` receives what was asked for. */
function buildProgram(version: string, onInvoke: (inv: Invocation) => void): Command {
  const program = new Command("interpreter")
    .description("A coding agent for your terminal that works with any model")
    .version(version, "-V, --version", "print the version and git commit")
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .helpCommand("help [command...]", "show the help of a command")
    .exitOverride()
    .configureOutput({ outputError: () => {} });
  addWorktreeFlag(addSharedFlags(program.argument("[prompt]", "the first message of the session")))
    .option("--plain", PLAIN_HELP)
    .action((prompt: string | undefined, options: SharedFlags) => {
      onInvoke({ mode: "repl", prompt, options });
    });
  const exec = addWorktreeFlag(addExecFlags(addSharedFlags(
    program.command("exec").alias("e").description("run a task non-interactively and exit")
      .argument("[prompt]", "the task; '-' or no argument reads it from stdin"),
  ))).action((prompt: string | undefined, options: ExecFlags) => {
    onInvoke({ mode: "exec", prompt, options });
  });
  addExecResume(exec, addSharedFlags, (prompt, options) => {
    onInvoke({ mode: "exec", prompt, options });
  });
  addReviewCommand(exec, onInvoke);
  addSharedFlags(
    program.command("resume").description("continue a saved session")
      .argument("[id]", "session id, the start of one, or a session file; none opens a picker")
      .option("--last", "the newest session of this directory")
      .option("--all", "with --last or the picker: sessions of every directory")
      .option("--plain", PLAIN_HELP),
  ).action((id: string | undefined, flags: SharedFlags & { last?: boolean; all?: boolean }) => {
    const { last, all, ...options } = flags;
    onInvoke({ mode: "resume", target: { id, last, all }, options });
  });
  addForkCommand(program, addSharedFlags, onInvoke);
  addExportCommand(program, onInvoke);
  const debug = program.command("debug").description("inspect the agent's setup");
  addSharedFlags(
    debug.command("config").description("print effective config values and where each came from"),
  ).action((options: SharedFlags) => onInvoke({ mode: "debug_config", options }));
  addSharedFlags(
    debug.command("harness")
      .argument("<id>", "harness id (e.g. claude-code), or the path of a harness folder")
      .option("--tokens", "print the first request's tokens (prompt and tools), full and lean")
      .description("print a harness's tools, request settings and a sample of each result"),
  ).action((id: string, flags: SharedFlags & { tokens?: boolean }) => {
    const { tokens, ...options } = flags;
    onInvoke({ mode: "debug_harness", id, options, ...(tokens ? { tokens } : {}) });
  });
  program.command("trust")
    .description("trust this project and the hooks and MCP servers it defines, after a yes")
    .option("-C, --cd <dir>", "the project (default: the current directory)")
    .option("-y, --yes", "trust them without asking (for scripts)")
    .option("--changes", "the same as trust-changes")
    .action((options: { cd?: string; yes?: boolean; changes?: boolean }) => {
      if (options.changes) onInvoke({ mode: "trust_changes", options: { cd: options.cd } });
      else onInvoke({ mode: "trust", options: { cd: options.cd, yes: options.yes } });
    });
  program.command("trust-changes")
    .description("load project config and skills that changed while a session ran")
    .option("-C, --cd <dir>", "the project (default: the current directory)")
    .action((options: { cd?: string }) => onInvoke({ mode: "trust_changes", options }));
  program.command("logout").description("remove the API keys the REPL stored in auth.json")
    .argument("[provider]", "only this provider's key (default: every key)")
    .action((provider: string | undefined) => onInvoke({ mode: "logout", provider }));
  addMcpServerCommand(program, addSharedFlags, onInvoke);
  addAcpCommand(program, onInvoke);
  const mcp = addMcpCommand(program, onInvoke);
  const evalCmd = addEvalCommand(program, onInvoke);
  addArenaCommand(program, onInvoke);
  const worktree = addWorktreeCommands(program, onInvoke);
  const groups = [program, debug, ...program.commands, ...debug.commands, ...mcp.commands];
  for (const cmd of [...groups, ...evalCmd.commands, ...worktree.commands]) {
    cmd.exitOverride().configureOutput({ outputError: () => {} });
  }
  return program;
}

/** `arena ARGS`: lib/cli/arena_cli.ts parses them when it runs. */
function addArenaCommand(program: Command, onInvoke: (inv: Invocation) => void): void {
  program.command("arena [options] [prompt...]").description(
    "run a prompt through several harnesses; apply one",
  )
    .helpOption(false).allowUnknownOption().action((first?: string, rest: string[] = []) =>
      onInvoke({ mode: "arena", argv: first === undefined ? [] : [first, ...rest] })
    );
}

/** `interpreter acp`, and its `--login` for an ACP client's terminal auth. */
function addAcpCommand(program: Command, onInvoke: (inv: Invocation) => void): void {
  addSharedFlags(
    program.command("acp").description(
      "serve the agent to editors over the Agent Client Protocol on stdin and stdout",
    ),
  ).option("--login", "open the REPL instead, to set up a provider and key (ACP terminal auth)")
    .action((options: SharedFlags & { login?: boolean }) => onInvoke({ mode: "acp", options }));
}

/** `exec review`: exec's flags go before or after `review`; those after it win. */
function addReviewCommand(exec: Command, onInvoke: (inv: Invocation) => void): void {
  addExecFlags(addSharedFlags(
    exec.command("review").description("review code changes in a fresh, read-only session")
      .argument("[prompt]", "review instructions instead of a target; '-' reads them from stdin")
      .option("--uncommitted", "the staged, unstaged and untracked changes")
      .option("--base <branch>", "the changes since the merge base of HEAD and BRANCH")
      .option("--commit <sha>", "the changes one commit introduced")
      .option("--title <title>", "with --commit: the commit's title, told to the reviewer"),
  )).action((prompt: string | undefined, flags: ExecFlags & ReviewArgs, cmd: Command) => {
    const { uncommitted, base, commit, title, ...own } = flags;
    const options = mergeOptions(cmd.parent!.opts<ExecFlags>(), own);
    onInvoke({
      mode: "exec",
      options: { ...options, review: { uncommitted, base, commit, title, prompt } },
    });
  });
}

/**
 * Parses `argv` (without the program name). Usage errors become `UsageError`; so does a prompt
 * that is a mistyped command when `terminal` (stdin is a terminal).
 */
export function parseArgs(
  argv: string[],
  version: string,
  terminal = Deno.stdin.isTerminal(),
): Invocation {
  let invocation: Invocation = { mode: "done" };
  const program = buildProgram(version, (inv) => (invocation = inv));
  try {
    program.parse(helpArgv(argv, program), { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return { mode: "done" };
    const message = error.message.replace(/^error: /, "");
    if (error.code === "commander.help") {
      // A command group without its command: its help is on stderr already.
      const group = argv.filter((arg) => !arg.startsWith("-")).join(" ");
      throw new UsageError(`Missing the command after "interpreter ${group}"`, {
        hint: `Run "interpreter help ${group}" to see its commands`,
      });
    }
    throw new UsageError(capitalize(message), {
      hint: mcpUsageHint(argv, message) ??
        `Run "interpreter ${commandPath(argv)}--help" to see the accepted options`,
    });
  }
  checkMistypedCommand(invocation, program, terminal);
  return withRootFlags(invocation, program.opts<ExecFlags>());
}

/**
 * A command's flags with those given before its name under them (`interpreter -C dir exec`
 * runs in `dir`, as `interpreter exec -C dir` does); the command's own win.
 */
function withRootFlags(invocation: Invocation, root: ExecFlags): Invocation {
  if (invocation.mode === "repl" || !("options" in invocation)) return invocation;
  const options = mergeOptions(root, invocation.options as ExecFlags);
  return { ...invocation, options } as Invocation;
}

function commandPath(argv: string[]): string {
  if (argv[0] === "exec" || argv[0] === "e") return argv[1] === "review" ? "exec review " : "exec ";
  if (["resume", "fork", "mcp-server", "acp", "export", "doctor"].includes(argv[0])) {
    return `${argv[0]} `;
  }
  if (argv[0] === "worktree") {
    return ["list", "remove"].includes(argv[1]) ? `worktree ${argv[1]} ` : "";
  }
  if (argv[0] === "eval") {
    return argv[1] === "report" || argv[1] === "compare" ? `eval ${argv[1]} ` : "eval ";
  }
  if (argv[0] === "debug") {
    return argv[1] === "config" || argv[1] === "harness" ? `debug ${argv[1]} ` : "debug ";
  }
  return "";
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
