// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * exec's typed prompt with its `@path` mentions expanded (issue 34 §3; lib/session/mentions.ts),
 * loaded only when the prompt has an `@`. Mentions expand in what the user typed: the argument,
 * or stdin when it is the whole prompt, never in a `<stdin>` block appended to an argument. Each
 * note (a mention left as typed, a file cut, an image the model cannot see) goes to stderr.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Block } from "../../model/message.ts";
import type { Session } from "../../session/types.ts";

/** The blocks of `prompt`, read from `argument` (and stdin), with its mentions' files after it. */
export async function mentionBlocks(
  session: Session,
  prompt: string,
  argument: string | undefined,
): Promise<Block[]> {
  const typed = argument !== undefined && argument !== "-" && prompt.startsWith(argument)
    ? argument.length
    : prompt.length;
  const { blocks, notes } = await session.commands.mentions(prompt, { upTo: typed });
  for (const note of notes) console.error(`note: ${terminalText(note)}`);
  return blocks;
}
