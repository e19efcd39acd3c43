/**
 * The types of a session's custom slash commands (`custom_commands.ts`), apart from their code so
 * that the session's types can name them without importing the session's turn machinery.
 */
import type { CommandCatalog } from "../setups/commands/discover.ts";
import type { CustomCommand } from "../setups/commands/types.ts";
import type { Block } from "../model/message.ts";

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

/** A typed prompt with its `@path` mentions expanded (mentions.ts). */
export interface MentionExpansion {
  /** The typed text as it was, then what each mention attached. */
  blocks: Block[];
  /** What the user should know: a mention left as typed, a file cut, an image not shown. */
  notes: string[];
}

/** Options of `SessionCommands.mentions()`. */
export interface MentionOptions {
  /** `~/...` paths are read too (the REPL). */
  home?: boolean;
  /** Only mentions before this index of the text expand (exec's appended `<stdin>` does not). */
  upTo?: number;
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
  /**
   * The typed prompt `text` with the files, images and folders its `@path` mentions name
   * attached after it (mentions.ts); a mention that names nothing readable stays, with a note.
   */
  mentions(text: string, opts?: MentionOptions): Promise<MentionExpansion>;
}
