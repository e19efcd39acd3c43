/**
 * Expanding a custom command for a session (custom_commands.ts, loaded when one is run): the
 * trust check of a project's command, its shell pre-execution as the model's commands run, and
 * its mentions read inside the workspace.
 */
import type { CommandPrompt, CustomCommand } from "./custom_command_types.ts";
import type { TurnSetup } from "./turn_context.ts";

/** Most bytes a mentioned file puts into a prompt. */
const MENTION_MAX_BYTES = 256 * 1024;

/** The prompt `command` invoked with `args` stands for; a `CommandError` says why not. */
export async function expandFor(
  t: TurnSetup,
  command: CustomCommand,
  args: string,
  signal: AbortSignal,
  opts: { homeMentions?: boolean },
): Promise<CommandPrompt> {
  const notes: string[] = [];
  const allowed = await checkTrusted(t, command, notes) ? command.allowedTools : [];
  const [{ expandCommand }, { runCommandAsTool }] = await Promise.all([
    import("../setups/commands/expand.ts"),
    import("./command_shell.ts"),
  ]);
  const prompt = await expandCommand(command, args, {
    runShell: (line) => runCommandAsTool(t, line, { signal, allowed }),
    readMention: (path) => readMention(t, path, opts.homeMentions === true),
  });
  if (command.agent) {
    notes.push(`/${command.name} names the agent "${command.agent}": not followed`);
  }
  if (command.subtask) notes.push(`/${command.name} asks for a sub-task: it runs in this session`);
  const model = await turnModel(t, command, notes);
  return { prompt, allowedRules: allowed, model, notes };
}

/**
 * The model `command` names for its turn, where the provider has it (Claude Code's `sonnet`,
 * `opus`, `haiku` pick that family's newest catalog model, as for sub-agents); else a note.
 */
async function turnModel(
  t: TurnSetup,
  command: CustomCommand,
  notes: string[],
): Promise<string | undefined> {
  if (!command.model || command.model === "inherit") return undefined;
  const [{ agentModel }, { catalogProvider }] = await Promise.all([
    import("../setups/agents/model.ts"),
    import("../providers/catalog.ts"),
  ]);
  const offered = catalogProvider(t.parts.catalog, t.parts.live.provider.settings)?.models
    .map((m) => m.id) ?? [];
  const current = t.parts.state.loop.model;
  const picked = agentModel(command.model, current, offered);
  if (picked.note) {
    notes.push(`/${command.name}: ${picked.note.replace(": it runs on", ": this turn runs on")}`);
  }
  return picked.model === current ? undefined : picked.model;
}

/**
 * A project's command that runs something (shell pre-execution) must be trusted as it is now, or
 * it is refused; its `allowed-tools`, untrusted, are left off with a note (its calls are asked
 * about as any). True when its `allowed-tools` apply.
 */
async function checkTrusted(
  t: TurnSetup,
  command: CustomCommand,
  notes: string[],
): Promise<boolean> {
  if (command.scope !== "project") return true;
  const { runnableOf } = await import("../setups/commands/definitions.ts");
  const { readProjectTrust } = await import("../config/trust_store.ts");
  const definitions = await runnableOf(command);
  if (definitions.length === 0) return true;
  const { config } = t.parts.live.agent;
  // In a project that is not trusted nothing of it runs, whatever was granted before.
  const trusted = config.trust === "trusted"
    ? (await readProjectTrust(config.home, config.projectRoot, t.parts.env)).definitions
    : new Set<string>();
  const waiting = definitions.filter((d) => !trusted.has(d.key));
  const shell = waiting.find((d) => d.kind === "command");
  if (shell) {
    const { CommandError } = await import("../setups/commands/expand.ts");
    throw new CommandError(
      `/${command.name} (${command.source}) runs \`${shell.command}\`, which you have not ` +
        "trusted yet",
      { hint: "Run `interpreter trust` in the project to review and trust it; nothing was sent" },
    );
  }
  const approves = waiting.find((d) => d.kind === "allowed_tools");
  if (!approves) return true;
  notes.push(
    `/${command.name}'s allowed-tools (${approves.command}) are not trusted yet and not applied: ` +
      'its calls are asked about as any; "interpreter trust" reviews and trusts them',
  );
  return false;
}

/**
 * The text a mention of `path` stands for: a file's content, or a folder's file names. Only
 * paths inside the project (and, where `home` is set, under `~`) are read.
 */
async function readMention(t: TurnSetup, path: string, home: boolean): Promise<string> {
  const { placeMention } = await import("./mentions.ts");
  const { full, real } = await placeMention(t, path, home);
  const fs = t.parts.live.agent.sandbox.fs;
  const info = await fs.stat(real);
  if (info.isDirectory) {
    const names = (await fs.readDir(real)).map((e) => e.name).sort();
    return names.slice(0, 500).join("\n");
  }
  if (info.size > MENTION_MAX_BYTES) {
    throw new Error(`${full} is over ${MENTION_MAX_BYTES / 1024} KiB`);
  }
  return new TextDecoder().decode(await fs.readFile(real));
}
