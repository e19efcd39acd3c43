/**
 * The types of a session's custom slash commands (`custom_commands.ts`), apart from their code so
 * that the session's types can name them without importing the session's turn machinery.
 */
import type { CommandCatalog } from "../setups/commands/discover.ts";
import type { CustomCommand } from "../setups/commands/types.ts";

export type { CommandCatalog, CustomCommand };

/** A command expanded: the prompt and what goes with its turn. */
export interface CommandPrompt {
  prompt: string;
  /** The command's `allowed-tools`, approved for this turn only (`PromptOptions.allowedRules`). */
  allowedRules: string[];
  /** The model the file names for the turn. */
  model?: string;
  /** What of the file is not followed (opencode's `agent`, `subtask`). */
  notes: string[];
}

/** The session's custom commands. */
export interface SessionCommands {
  /**
   * The commands found at start, without those named like one of `builtins`. Each warning (a bad
   * file, a clash) is also told once as a session warning, the first time it comes up.
   */
  list(builtins?: readonly string[]): Promise<CommandCatalog>;
  /** The prompt `command` invoked with `args` stands for; a `CommandError` says why not. */
  expand(
    command: CustomCommand,
    args: string,
    signal: AbortSignal,
    opts?: { homeMentions?: boolean },
  ): Promise<CommandPrompt>;
}
