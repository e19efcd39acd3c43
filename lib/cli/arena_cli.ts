/**
 * `interpreter arena [options] PROMPT`: its flags become `ArenaArgs` here, checked before
 * anything runs. The main command line only names the command (and passes its arguments on), so
 * this parser and the arena load only when the arena runs.
 */
import { Command, CommanderError, Option } from "commander";
import { UsageError } from "../errors.ts";
import type { ArenaArgs, ArenaPick } from "../modes/eval/arena/arena_args.ts";
import type { ExecPassThrough } from "../modes/eval/eval_args.ts";
import { collect, positive } from "./eval_cli.ts";

/** The arena's flags as commander parses them. */
interface ArenaFlags extends ExecPassThrough {
  harness?: string;
  model?: string;
  check?: string;
  pick?: string;
  yes?: boolean;
  timeout: string;
  out?: string;
  handoff?: string;
}

const EXAMPLES = `
Examples:
  interpreter arena --harness native,minimal,claude-code --check "npm test" --pick best "fix the failing test"
  interpreter arena -m gpt-5,qwen3-coder --harness native "add a --verbose flag"`;

/** The `arena` command as commander sees it (its options are the REPL's /arena flags too). */
export function arenaProgram(
  onParsed: (prompt: string | undefined, flags: ArenaFlags) => void,
): Command {
  return new Command("interpreter arena")
    .description(
      "run one prompt through several harnesses and models at once, compare them, apply one",
    )
    .argument("[prompt]", "the task given to every contestant")
    .option("--harness <list>", "harnesses: a,b,… or all or fitting (default fitting)")
    .option("-m, --model <list>", "models: m1,m2,… (default: the configured model)")
    .option("--check <cmd>", "a command run sandboxed in each copy after the agent; exit 0 passes")
    .option("--pick <choice>", "best (needs --check), a letter or number, or none")
    .option("-y, --yes", "apply protected paths (.git*, .openinterpreter/…) without asking")
    .option("--timeout <seconds>", "each contestant's time limit", "1800")
    .option("--out <dir>", "the job folder (default ~/.openinterpreter/arena/<time>)")
    .option("-c, --config <key=value>", "a config override for every contestant", collect, [])
    .option("-p, --profile <name>", "use the [profiles.NAME] table of config.toml")
    .addOption(
      new Option("-s, --sandbox <mode>", "sandbox of every contestant (checks: always bwrap)")
        .choices(["read-only", "workspace-write", "danger-full-access"]),
    )
    .option("-C, --cd <dir>", "the repository (default: the current directory)")
    .addOption(new Option("--handoff <file>").hideHelp())
    .addHelpText("after", EXAMPLES)
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .action(onParsed);
}

/** Parses `argv` (the arguments after `arena`); undefined when help was printed. */
export function parseArenaArgs(argv: string[]): ArenaArgs | undefined {
  let parsed: ArenaArgs | undefined;
  const program = arenaProgram((prompt, flags) => (parsed = arenaArgsOf(prompt, flags)));
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return undefined;
    const message = error.message.replace(/^error: /, "");
    throw new UsageError(message.charAt(0).toUpperCase() + message.slice(1), {
      hint: 'Run "interpreter arena --help" to see the accepted options',
    });
  }
  return parsed;
}

function arenaArgsOf(prompt: string | undefined, flags: ArenaFlags): ArenaArgs {
  if (!prompt?.trim()) {
    throw new UsageError("No prompt for the contestants", {
      hint: 'Give it last: interpreter arena --harness native,minimal "fix the failing test"',
    });
  }
  const pick = flags.pick === undefined ? undefined : pickOf(flags.pick);
  if (pick?.kind === "best" && !flags.check) {
    throw new UsageError(
      "--pick best needs --check: without one nothing tells a pass from a fail",
      {
        hint: 'Add --check "CMD" (a command that exits 0 when the task is done), ' +
          "or pick one yourself with --pick LETTER",
      },
    );
  }
  const { config, profile, sandbox, cd } = flags;
  return {
    prompt,
    harness: flags.harness,
    model: flags.model,
    check: flags.check,
    ...(pick ? { pick } : {}),
    yes: Boolean(flags.yes),
    timeout: positive(flags.timeout, "--timeout", { example: 600 }),
    out: flags.out,
    handoff: flags.handoff,
    exec: { config, profile, sandbox, cd },
  };
}

function pickOf(text: string): ArenaPick {
  const value = text.trim().toLowerCase();
  if (value === "best" || value === "none") return { kind: value };
  if (/^([a-z]|\d+)$/.test(value)) return { kind: "one", which: value };
  throw new UsageError(`--pick takes best, none, a letter or a number, not "${text}"`, {
    hint: "For example --pick best (with --check), --pick b or --pick 2",
  });
}

/** Runs `interpreter arena ARGS`; answers the exit code. */
export async function runArenaCommand(argv: string[]): Promise<number> {
  const args = parseArenaArgs(argv);
  if (!args) return 0;
  const { runArena } = await import("../modes/eval/arena/arena.ts");
  return await runArena(args);
}
