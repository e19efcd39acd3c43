/** The shape of one custom slash command read from a file (issue 33 §1). */
import type { NamedDefinition, SetupVendor } from "../sources.ts";

/**
 * Which placeholder syntax a command's text uses: Claude Code's (`$ARGUMENTS`, `$0`, `` !`cmd` ``,
 * `@path`; ours too), Gemini CLI's and Qwen Code's (`{{args}}`, `!{cmd}`, `@{path}`), Codex's
 * legacy prompts (`$1`, `$ARGUMENTS`, `$KEY`), or opencode's (`$ARGUMENTS`, 1-based `$1`).
 */
export type CommandSyntax = "claude" | "gemini" | "codex" | "opencode";

/** A custom slash command. */
export interface CustomCommand extends NamedDefinition {
  /** The name without the slash: `fixit`, `git:oneline`, `prompts:review`. */
  name: string;
  /** Other names it answers to (Codex's `/prompts:x` is also `/x`). */
  aliases: string[];
  vendor: SetupVendor;
  syntax: CommandSyntax;
  description?: string;
  argumentHint?: string;
  /** Claude Code's `arguments:` names, for `$name` placeholders, in order. */
  argumentNames: string[];
  /** Claude Code's `allowed-tools` rules, approved for the invoking turn only. */
  allowedTools: string[];
  /** The model to use for the turn, as the file names it. */
  model?: string;
  /** opencode's `agent` and `subtask`, noted as not supported. */
  agent?: string;
  subtask?: boolean;
  /** A model may invoke it (it has a description and does not opt out). */
  modelInvocable: boolean;
  /** The prompt text, placeholders unexpanded. */
  body: string;
  /** The line of `source` the body starts at (1-based), for errors. */
  bodyLine: number;
}
