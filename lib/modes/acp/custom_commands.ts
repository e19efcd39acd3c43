/**
 * Custom slash commands in ACP (issue 33 §1): offered in `available_commands_update` after our
 * own, with their description and input hint, and run when a prompt starts with an exact known
 * `/name`. A command that cannot be expanded fails the prompt with its error, nothing sent.
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { Block } from "../../model/message.ts";
import { customCommandOf, promptCommand } from "../../session/command_prompt.ts";
import type { PromptOutcome, Session } from "../../session/types.ts";
import { AVAILABLE_COMMANDS } from "./commands.ts";

const BUILTINS = AVAILABLE_COMMANDS.map((c) => c.name);

/** Our commands, then the session's custom ones; undefined when there are none. */
export async function availableCommands(
  session: Session,
): Promise<AvailableCommand[] | undefined> {
  const { commands } = await session.commands.list(BUILTINS);
  if (commands.length === 0) return undefined;
  return [
    ...AVAILABLE_COMMANDS,
    ...commands.map((c) => ({
      name: c.name,
      description: c.description ?? `Custom command from ${c.source}`,
      ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    })),
  ];
}

/** Sends `blocks` (their `@path` mentions attached), or the custom command `text` starts with. */
export async function promptOrCommand(
  session: Session,
  prompt: { text: string; blocks: Block[] },
  signal: AbortSignal,
  note: (message: string) => void,
): Promise<PromptOutcome> {
  const call = await customCommandOf(session, prompt.text, BUILTINS);
  if (!call) return await session.prompt(await withMentions(session, prompt.blocks, note), signal);
  const expanded = await session.commands.expand(call.command, call.args, signal);
  return await promptCommand(session, expanded, signal, { note });
}

/**
 * `blocks` with the `@path` mentions of their text attached (lib/session/mentions.ts): files
 * inside the workspace only, never `~`; each note (a mention left as typed) goes to `note`.
 */
async function withMentions(
  session: Session,
  blocks: Block[],
  note: (message: string) => void,
): Promise<Block[]> {
  const out: Block[] = [];
  for (const block of blocks) {
    if (block.type !== "text" || !block.text.includes("@")) {
      out.push(block);
      continue;
    }
    const expanded = await session.commands.mentions(block.text);
    expanded.notes.forEach(note);
    out.push(...expanded.blocks);
  }
  return out;
}
