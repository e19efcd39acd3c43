/**
 * Custom slash commands in the REPL (issue 33 §1): `/name args` runs one after the built-ins,
 * `/commands` lists them with their vendor and file, and `/help` shows them in a group of their
 * own. A command that cannot be expanded prints its error and sends nothing.
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { UserError } from "../../errors.ts";
import { customCommandOf, promptCommand } from "../../session/command_prompt.ts";
import type { CommandCatalog, CustomCommand } from "../../session/custom_commands.ts";
import type { PromptOutcome, Session } from "../../session/open.ts";
import type { Style } from "../term/style.ts";
import { VENDOR_NAMES } from "../../setups/sources.ts";
import { shownPath } from "./shown_path.ts";

/** What the custom commands reach of the REPL. */
export interface CustomCommandContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Runs a turn as a typed prompt would, through `send` when given. */
  runTurn(
    prompt: string,
    send?: (signal: AbortSignal) => Promise<PromptOutcome>,
  ): Promise<PromptOutcome | undefined>;
}

/** Runs `/name arg` when `name` is a custom command; false when it is none. */
export async function runCustomCommand(
  line: string,
  builtins: readonly string[],
  ctx: CustomCommandContext,
): Promise<boolean> {
  const session = ctx.session();
  const call = await customCommandOf(session, line, builtins);
  if (!call) return false;
  const note = (message: string) => ctx.print([ctx.style.dim(`note: ${terminalText(message)}`)]);
  let expanded;
  try {
    expanded = await ctx.interruptible((signal) =>
      session.commands.expand(call.command, call.args, signal, { homeMentions: true })
    );
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    ctx.print([
      ctx.style.red(`error: ${terminalText(error.message)}`),
      ...(error.hint ? [ctx.style.dim(`hint: ${terminalText(error.hint)}`)] : []),
    ]);
    return true;
  }
  await ctx.runTurn(
    expanded.prompt,
    (signal) => promptCommand(session, expanded, signal, { note }),
  );
  return true;
}

/** One line per command: `/name hint  description  (vendor: file)`. */
export function commandLines(
  catalog: CommandCatalog,
  cwd: string,
  style: Style,
): string[] {
  const commands = terminalSafe(catalog.commands);
  const width = Math.max(0, ...commands.map((c) => usage(c).length)) + 2;
  return [
    ...commands.map((c) =>
      `${style.bold(usage(c).padEnd(width))} ${c.description ?? ""} ${
        style.dim(
          `(${VENDOR_NAMES[c.vendor] ?? c.vendor}, ${c.scope}: ${shownPath(c.source, cwd)})`,
        )
      }`
    ),
    ...catalog.warnings.map((w) => style.dim(`warning: ${terminalText(w)}`)),
  ];
}

function usage(c: CustomCommand): string {
  return c.argumentHint ? `/${c.name} ${c.argumentHint}` : `/${c.name}`;
}

/** The `/help` group of the custom commands; none when there are none. */
export async function customHelpLines(
  ctx: Pick<CustomCommandContext, "session" | "style">,
  builtins: readonly string[],
): Promise<string[]> {
  // A session without custom commands (a test's stand-in) adds no group.
  const catalog = await ctx.session().commands?.list(builtins);
  if (!catalog?.commands.length) return [];
  const lines = commandLines({ ...catalog, warnings: [] }, ctx.session().info.cwd, ctx.style);
  return [ctx.style.dim("Custom commands (/commands lists them with their files):"), ...lines];
}

/** The `/commands` command. */
export const COMMANDS_COMMAND = {
  name: "commands",
  summary: "the custom slash commands found, with their vendor and file",
  run: async (_: string, ctx: CustomCommandContext & { builtins: readonly string[] }) => {
    const session = ctx.session();
    const catalog = await session.commands.list(ctx.builtins);
    if (catalog.commands.length === 0) {
      ctx.print([
        "No custom commands found (.agents/commands/*.md, .claude/commands, .gemini/commands, …)",
        ...catalog.warnings.map((w) => ctx.style.dim(`warning: ${terminalText(w)}`)),
      ]);
      return;
    }
    ctx.print(commandLines(catalog, session.info.cwd, ctx.style));
  },
};
