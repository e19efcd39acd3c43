/**
 * MCP servers' prompts as REPL commands, named as Claude Code names them:
 * `/mcp__SERVER__PROMPT [args]`. The words after the command (a "double-quoted phrase" counts as
 * one) fill the prompt's arguments in order, the last one taking any words left over; the
 * server's text for them is then sent as the user's prompt.
 */
import { terminalText } from "../../approval/visible.ts";
import type { McpPrompt } from "../../tools/mcp_hub.ts";
import type { Session } from "../../session/open.ts";
import { nearestName } from "../../nearest.ts";
import type { Style } from "../term/style.ts";

/** Command names of MCP prompts start with this. */
const PROMPT_COMMAND_PREFIX = "mcp__";

/** How long `/help` waits for the servers' prompt lists. */
const HELP_LIST_MS = 5000;

/** What a prompt command uses of the REPL's command context. */
export interface PromptCommandContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Runs `task` with Ctrl-C tied to its signal, like a turn. */
  interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** The command of prompt `p`, without the slash: `mcp__SERVER__PROMPT`, names made safe. */
function promptCommandName(p: Pick<McpPrompt, "server" | "name">): string {
  return `${PROMPT_COMMAND_PREFIX}${commandSafe(p.server)}__${commandSafe(p.name)}`;
}

/** Whether `name` (without the slash, any case) is shaped like a prompt command. */
export function isPromptCommand(name: string): boolean {
  return name.toLowerCase().startsWith(PROMPT_COMMAND_PREFIX);
}

/** The words of a command's argument text; a "double-quoted phrase" is one word. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2]);
  return words;
}

/** `/mcp__docs__review <pr> [focus]`: required arguments in angle brackets. */
function promptUsage(p: McpPrompt): string {
  const args = p.arguments.map((a) => a.required ? `<${a.name}>` : `[${a.name}]`);
  return [`/${promptCommandName(p)}`, ...args].join(" ");
}

/**
 * The prompt's arguments by name from `words`, in order; the last argument takes the words left
 * over. Missing required ones, or words for a prompt that takes none, are a problem to show.
 */
export function promptArguments(
  p: McpPrompt,
  words: string[],
): { args: Record<string, string> } | { problem: string } {
  if (p.arguments.length === 0 && words.length > 0) {
    return { problem: `/${promptCommandName(p)} takes no arguments` };
  }
  const args: Record<string, string> = {};
  p.arguments.forEach((a, i) => {
    const last = i === p.arguments.length - 1;
    const value = last ? words.slice(i).join(" ") : words[i];
    if (value) args[a.name] = value;
  });
  const missing = p.arguments.filter((a) => a.required && args[a.name] === undefined);
  if (missing.length === 0) return { args };
  const names = missing.map((a) => a.name);
  return {
    problem: `Missing argument${names.length > 1 ? "s" : ""} ${names.join(", ")} for /${
      promptCommandName(p)
    }`,
  };
}

/**
 * Runs `/name arg` when `name` is one of the session's prompt commands: the text to send as the
 * user's prompt, or undefined when nothing is to be sent (a usage line was printed). Throws an
 * Error with a hint for a command no server offers and for a server's failure.
 */
export async function runPromptCommand(
  name: string,
  arg: string,
  ctx: PromptCommandContext,
): Promise<string | undefined> {
  const { mcp } = ctx.session();
  const prompts = await ctx.interruptible((signal) => mcp.listPrompts(signal));
  const prompt = prompts.find((p) => promptCommandName(p).toLowerCase() === name.toLowerCase());
  if (!prompt) throw unknownPrompt(name, prompts, ctx.session());
  const filled = promptArguments(prompt, splitWords(arg));
  if ("problem" in filled) {
    ctx.print([
      terminalText(filled.problem),
      ctx.style.dim(`Usage: ${terminalText(promptUsage(prompt))}`),
    ]);
    for (const a of prompt.arguments.filter((a) => a.description)) {
      ctx.print([ctx.style.dim(`  ${terminalText(a.name)}: ${terminalText(a.description!)}`)]);
    }
    return undefined;
  }
  const text = await ctx.interruptible((signal) =>
    mcp.getPrompt(prompt.server, prompt.name, filled.args, signal)
  );
  if (text.trim() === "") {
    ctx.print([
      `The prompt ${terminalText(prompt.name)} of ${
        terminalText(prompt.server)
      } is empty; nothing was sent`,
    ]);
    return undefined;
  }
  return text;
}

/** `/help`'s lines for the prompt commands, or a note when the servers cannot be asked. */
export async function promptHelpLines(ctx: PromptCommandContext): Promise<string[]> {
  const { mcp } = ctx.session();
  if (mcp.servers().length === 0) return [];
  let prompts: McpPrompt[];
  try {
    prompts = await ctx.interruptible((signal) =>
      mcp.listPrompts(AbortSignal.any([signal, AbortSignal.timeout(HELP_LIST_MS)]))
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [ctx.style.dim(`MCP prompts could not be listed: ${terminalText(why)}`)];
  }
  if (prompts.length === 0) return [];
  const width = Math.max(...prompts.map((p) => promptCommandName(p).length)) + 2;
  return [
    ...prompts.map((p) =>
      `${ctx.style.bold(`/${terminalText(promptCommandName(p))}`.padEnd(width))} ${
        terminalText(firstLine(p.description) || `prompt ${p.name} of ${p.server}`)
      }${p.arguments.length ? ctx.style.dim(` (${terminalText(argsHint(p))})`) : ""}`
    ),
    ctx.style.dim("MCP prompts: /mcp__SERVER__PROMPT ARGS sends the server's prompt as yours"),
  ];
}

function argsHint(p: McpPrompt): string {
  return p.arguments.map((a) => a.required ? a.name : `${a.name}?`).join(" ");
}

function firstLine(text: string | undefined): string {
  return (text ?? "").trim().split("\n")[0];
}

/** Why `/name` is not a prompt of the session: a server not ready, or a likely typo. */
function unknownPrompt(name: string, prompts: McpPrompt[], session: Session): Error {
  const lower = name.toLowerCase();
  const server = session.mcp.servers().find((s) =>
    lower.startsWith(`${PROMPT_COMMAND_PREFIX}${commandSafe(s.id).toLowerCase()}__`)
  );
  if (server && server.status !== "ready") {
    const why = server.reason ? `: ${server.reason}` : "";
    const state = server.status === "starting" ? "is still starting" : `is ${server.status}${why}`;
    return Object.assign(new Error(`MCP server "${server.id}" ${state}`), {
      hint: server.status === "starting"
        ? "Try again in a moment; /mcp shows the servers"
        : "/mcp shows the servers and why one is not ready",
    });
  }
  const names = prompts.map(promptCommandName);
  const near = nearestName(lower, names, { within: 2, contains: false });
  return Object.assign(new Error(`Unknown command "/${name}": no MCP server offers that prompt`), {
    hint: near
      ? `Did you mean /${near}?`
      : names.length
      ? "/help lists the MCP prompt commands"
      : "The session's MCP servers offer no prompts",
  });
}

/** Letters, digits, `_` and `-` as they are; anything else `_` (Claude Code's normalisation). */
function commandSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}
