/**
 * The custom slash commands of a session (issue 33 §1; lib/setups/commands): read once, at
 * start, from our folders and other agents'; expanded into the prompt a front end sends. A
 * project's command that runs something (shell pre-execution) or approves something
 * (`allowed-tools`) is refused until the user trusted that exact definition (`interpreter
 * trust`); its commands run as the model's do (`command_shell.ts`).
 */
import type { CommandCatalog, SessionCommands } from "./custom_command_types.ts";
import type { TurnSetup } from "./turn_context.ts";

export type {
  CommandCatalog,
  CommandPrompt,
  CustomCommand,
  SessionCommands,
} from "./custom_command_types.ts";

/** The custom commands of the session whose turn setup `setup` gives. */
export function sessionCommands(setup: () => TurnSetup): SessionCommands {
  let found: Promise<CommandCatalog> | undefined;
  const discover = async () => {
    const { parts } = setup();
    const { discoverCommands } = await import("../setups/commands/discover.ts");
    const { setupContext } = await import("../setups/sources.ts");
    const { agent } = parts.live;
    return await discoverCommands(
      setupContext(agent.config, { env: parts.env, isHeldBack: agent.workspace.isHeldBack }),
    );
  };
  const told = new Set<string>();
  return {
    async list(builtins = []) {
      found ??= discover();
      const { withoutBuiltins } = await import("../setups/commands/discover.ts");
      const catalog = withoutBuiltins(await found, builtins);
      for (const message of catalog.warnings.filter((w) => !told.has(w))) {
        told.add(message);
        setup().parts.io.onEvent({ type: "warning", message });
      }
      return catalog;
    },
    expand: async (command, args, signal, opts = {}) =>
      (await import("./custom_commands_run.ts")).expandFor(setup(), command, args, signal, opts),
    mentions: async (text, opts) =>
      (await import("./mentions.ts")).expandMentions(setup(), text, opts),
  };
}
