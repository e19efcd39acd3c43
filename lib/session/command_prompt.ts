/**
 * What every front end does with a line that starts with a custom command (`/fixit habits.py`):
 * find the command (an exact known name only), expand it, and run the turn with its
 * `allowed-tools` and, where the file names one the provider has, its model.
 */
import type { CommandPrompt, CustomCommand } from "./custom_commands.ts";
import type { Block } from "../model/message.ts";
import type { AnswerSchema, PromptOutcome, Session } from "./types.ts";

/** A custom command and the text typed after it. */
export interface CommandCall {
  command: CustomCommand;
  args: string;
}

/**
 * The custom command `line` starts with, or undefined when its first word is no known command
 * (then the line is sent as typed). `builtins` are the front end's own command names.
 */
export async function customCommandOf(
  session: Session,
  line: string,
  builtins: readonly string[] = [],
): Promise<CommandCall | undefined> {
  const m = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m || !session.commands) return undefined;
  const { commands } = await session.commands.list(builtins);
  const { findCommand } = await import("../setups/commands/discover.ts");
  const command = findCommand(commands, m[1]);
  return command ? { command, args: m[2] ?? "" } : undefined;
}

/**
 * Runs the turn of an expanded command: its model for this turn when the file names one the
 * session can switch to (else `note` says so), then the model before it again.
 */
export async function promptCommand(
  session: Session,
  expanded: CommandPrompt,
  signal: AbortSignal,
  opts: { note: (message: string) => void; before?: Block[]; outputSchema?: AnswerSchema },
): Promise<PromptOutcome> {
  const { note } = opts;
  for (const message of expanded.notes) note(message);
  const before = session.settings;
  let switched = false;
  if (expanded.model && expanded.model !== before.model) {
    try {
      await session.switchModel(expanded.model);
      switched = true;
    } catch (error) {
      note(
        `The model "${expanded.model}" is not available here (${(error as Error).message}); ` +
          `this turn uses ${before.model}`,
      );
    }
  }
  try {
    const input: Block[] = [...opts.before ?? [], { type: "text", text: expanded.prompt }];
    return await session.prompt(input, signal, {
      ...(opts.outputSchema ? { outputSchema: opts.outputSchema } : {}),
      ...(expanded.allowedRules.length ? { allowedRules: expanded.allowedRules } : {}),
    });
  } finally {
    if (switched) {
      await session.switchModel(`${before.provider}/${before.model}`, before.reasoningEffort)
        .catch((error: Error) => note(`Cannot switch back to ${before.model}: ${error.message}`));
    }
  }
}
