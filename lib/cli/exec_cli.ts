/**
 * The flags only `exec` has, and `exec resume`. The Codex SDK puts exec's flags before `resume ID`
 * and `--image` after it (older SDKs before it), so both commands take them and they are merged.
 */
import { type Command, Option } from "commander";
import { UsageError } from "../errors.ts";
import type { ExecFlags } from "./flags.ts";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds exec's own flags to `cmd`. */
export function addExecFlags(cmd: Command): Command {
  return cmd
    .option("--json", "print the run as JSONL events on stdout (what the Codex SDK reads)")
    .addOption(new Option("--experimental-json", "alias of --json").hideHelp())
    .option("--output-schema <file>", "JSON Schema file the final answer must match")
    .option(
      "-i, --image <file>",
      "attach image files to the prompt (repeatable, or FILE,FILE)",
      collect,
      [],
    )
    .option("-o, --output-last-message <file>", "also write the final answer to FILE")
    .option("--trajectory <file>", "write the run as an ATIF trajectory (Harbor) to FILE")
    .option("--ephemeral", "save no session file")
    .option("--wait-wakeups", "wait for the wake-ups the model schedules and run their prompts")
    .addOption(new Option("--thread-source <source>", "accepted for the Codex SDK").hideHelp())
    .addOption(
      new Option("--cyber-access-program <program>", "accepted for the Codex SDK").hideHelp(),
    );
}

/**
 * Adds `exec resume [ID] [PROMPT]` under `exec`. With `--last`, a single positional is the
 * prompt. Flags given to `exec` before `resume` count too; lists (`-c`, `--image`) add up.
 */
export function addExecResume(
  exec: Command,
  addShared: (cmd: Command) => Command,
  onResume: (prompt: string | undefined, options: ExecFlags) => void,
): void {
  const resume = addExecFlags(addShared(
    exec.command("resume").description("continue a saved session non-interactively")
      .argument("[id]", "session id, the start of one, or a session file")
      .argument("[prompt]", "the next message; '-' or none reads it from stdin")
      .option("--last", "the newest session of this directory")
      .option("--all", "with --last: sessions of every directory"),
  ));
  resume.action((
    id: string | undefined,
    prompt: string | undefined,
    flags: ExecFlags & { last?: boolean; all?: boolean },
    cmd: Command,
  ) => {
    const { last, all, ...own } = flags;
    if (last && id !== undefined && prompt !== undefined) {
      throw new UsageError("Give either a session id or --last to exec resume, not both", {
        hint: 'Run "interpreter exec resume --last PROMPT" or "interpreter exec resume ID PROMPT"',
      });
    }
    if (!last && id === undefined) {
      throw new UsageError("exec resume needs a session id or --last", {
        hint: 'Run "interpreter exec resume --last PROMPT", or "interpreter resume" to pick one',
      });
    }
    const target = last ? { last, all } : { id, all };
    const next = last && prompt === undefined ? id : prompt;
    const options = mergeOptions(cmd.parent!.opts<ExecFlags>(), own as ExecFlags);
    onResume(next, { ...options, resume: target });
  });
}

/** `own` over `parent`; lists are concatenated in command-line order. */
export function mergeOptions(parent: ExecFlags, own: ExecFlags): ExecFlags {
  const merged: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(own)) {
    const before = merged[key];
    if (Array.isArray(value)) merged[key] = [...(Array.isArray(before) ? before : []), ...value];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as unknown as ExecFlags;
}
