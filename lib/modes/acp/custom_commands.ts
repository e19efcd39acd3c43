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

/** Sends `blocks`, or the custom command `text` starts with, expanded. */
export async function promptOrCommand(
  session: Session,
  prompt: { text: string; blocks: Block[] },
  signal: AbortSignal,
  note: (message: string) => void,
): Promise<PromptOutcome> {
  const call = prompt.text.trim().startsWith("/")
    ? await customCommandOf(session, prompt.text, BUILTINS)
    : undefined;
  if (!call) return await session.prompt(prompt.blocks, signal);
  const expanded = await session.commands.expand(call.command, call.args, signal);
  return await promptCommand(session, expanded, signal, { note });
}
