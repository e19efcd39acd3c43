/**
 * The project's runnable definitions among its custom commands (lib/setups/definitions.ts): a
 * command with shell pre-execution (kind "command", what runs) and a command's `allowed-tools`
 * (kind "allowed_tools", what it approves). Each is trusted per exact definition: a change to
 * the commands it runs or the rules it names makes it untrusted again.
 */
import { definitionDigest, type RunnableDefinition } from "../../config/project_definitions.ts";
import type { SetupContext } from "../sources.ts";
import { discoverCommands } from "./discover.ts";
import { shellCommands } from "./segments.ts";
import type { CustomCommand } from "./types.ts";

/** The runnable definitions of the project's custom commands, in discovery order. */
export async function commandDefinitions(ctx: SetupContext): Promise<RunnableDefinition[]> {
  const { commands } = await discoverCommands(ctx);
  const out: RunnableDefinition[] = [];
  for (const command of commands) {
    if (command.scope === "project") out.push(...await runnableOf(command));
  }
  return out;
}

/** What of `command` needs trust before it runs: its shell commands and its allowed-tools. */
export async function runnableOf(command: CustomCommand): Promise<RunnableDefinition[]> {
  const out: RunnableDefinition[] = [];
  let shell: string[] = [];
  try {
    shell = shellCommands(command.body, command.syntax);
  } catch {
    // An unclosed !{ runs nothing; expanding the command says what is wrong.
  }
  const name = `/${command.name}`;
  if (shell.length > 0) {
    out.push({
      kind: "command",
      name,
      command: shell.join("; "),
      source: command.source,
      key: await definitionDigest(["command", command.name, shell]),
    });
  }
  if (command.allowedTools.length > 0) {
    out.push({
      kind: "allowed_tools",
      name,
      command: command.allowedTools.join(", "),
      source: command.source,
      key: await definitionDigest(["allowed_tools", command.name, command.allowedTools]),
    });
  }
  return out;
}
