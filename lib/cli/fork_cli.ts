/** `interpreter fork [ID] [--last] [--all]`: continue a copy of a saved session in the REPL. */
import type { Command } from "commander";
import type { Invocation, SharedFlags } from "./flags.ts";

/** Adds `fork` to `program`; it is `resume` on a copy, so it becomes a resume invocation. */
export function addForkCommand(
  program: Command,
  addShared: (cmd: Command) => Command,
  onInvoke: (inv: Invocation) => void,
): void {
  addShared(
    program.command("fork").description(
      "continue in a copy of a saved session, the original left as it is",
    )
      .argument("[id]", "session id, the start of one, or a session file; none opens a picker")
      .option("--last", "the newest session of this directory")
      .option("--all", "with --last or the picker: sessions of every directory"),
  ).action((id: string | undefined, flags: SharedFlags & { last?: boolean; all?: boolean }) => {
    const { last, all, ...options } = flags;
    onInvoke({ mode: "resume", target: { id, last, all }, options, fork: true });
  });
}
