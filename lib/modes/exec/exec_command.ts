// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * exec's first prompt: one that starts with an exact known custom command (`/fixit habits.py`)
 * runs that command, as `claude -p "/name args"` does; any other text, a leading `/word`
 * included, is sent as typed. A command that cannot be expanded (an argument missing, a shell
 * command refused, not trusted yet) ends the run with its error before anything is sent.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Block } from "../../model/message.ts";
import { customCommandOf, promptCommand } from "../../session/command_prompt.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
import type { AnswerSchema } from "../../session/types.ts";

/**
 * Sends `prompt` (after `before`, the images; as `typed` gives it, mentions expanded), or the
 * command it starts with, expanded.
 */
export async function execPrompt(
  session: Session,
  prompt: string,
  signal: AbortSignal,
  opts: { before: Block[]; typed: () => Promise<Block[]>; outputSchema?: AnswerSchema },
): Promise<PromptOutcome> {
  const call = await customCommandOf(session, prompt);
  if (!call) {
    const input: Block[] = [...opts.before, ...await opts.typed()];
    return await session.prompt(input, signal, { outputSchema: opts.outputSchema });
  }
  const note = (message: string) => console.error(`note: ${terminalText(message)}`);
  const expanded = await session.commands.expand(call.command, call.args, signal);
  return await promptCommand(session, expanded, signal, { ...opts, note });
}
