/**
 * What a newcomer types at the command line that is not a prompt: `interpreter help [COMMAND]`,
 * and a mistyped command (`interpreter exce`) that would otherwise be sent to the model.
 */
import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import type { Invocation } from "./flags.ts";
import { nearestName } from "../nearest.ts";

/** `help [COMMAND...]` as `COMMAND... --help`; other arguments as they are. */
export function helpArgv(argv: string[], program: Command): string[] {
  if (argv[0] !== "help") return argv;
  const path = argv.slice(1);
  let command = program;
  for (const [i, name] of path.entries()) {
    const sub = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!sub) {
      const asked = path.slice(0, i + 1).join(" ");
      throw new UsageError(`There is no command "${asked}"`, {
        hint: `Run "interpreter help${
          i ? ` ${path.slice(0, i).join(" ")}` : ""
        }" to see the commands`,
      });
    }
    command = sub;
  }
  return [...path, "--help"];
}

/**
 * Refuses a REPL prompt that is one word a typo away from a command (`exce` for `exec`), when a
 * person at a terminal typed it: a real prompt has more words, or is no command's near miss.
 */
export function checkMistypedCommand(
  invocation: Invocation,
  program: Command,
  terminal: boolean,
): void {
  if (!terminal || invocation.mode !== "repl" || invocation.prompt === undefined) return;
  const word = invocation.prompt.trim();
  const names = [...program.commands.map((c) => c.name()), "help"];
  const near = nearCommand(word, names);
  if (!near) return;
  throw new UsageError(`"${word}" is not a command: did you mean \`${near}\`?`, {
    hint: `Run "interpreter ${near} --help" to see how to use it, or "interpreter help" for ` +
      `every command; to start a session with this prompt, write it as a sentence`,
  });
}

/** The command `word` is a typo of: one edit away (two for words over five letters). */
export function nearCommand(word: string, names: readonly string[]): string | undefined {
  if (word.length < 3 || /\s/.test(word) || names.includes(word)) return undefined;
  return nearestName(word, names, { within: word.length > 5 ? 2 : 1, contains: false });
}
