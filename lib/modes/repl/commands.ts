/**
 * The REPL's slash commands. Each one prints to the transcript and returns. What a server, a
 * file or a session reports is shown with its control characters made visible (`terminalSafe`).
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import { formatDuration } from "../term/duration.ts";
import type { Style } from "../term/style.ts";
import type { ReviewBase } from "../../review/review.ts";
import {
  type PromptOutcome,
  reconfigured,
  type Session,
  type SessionEvent,
} from "../../session/open.ts";
import { colorDiff } from "./render.ts";
import { nearestName } from "../../nearest.ts";
import type { RawTerminal } from "./list_picker.ts";
import { FORK_COMMANDS } from "./fork_command.ts";
import { PLAN_COMMAND } from "./plan_command.ts";
import { isPromptCommand, promptHelpLines, runPromptCommand } from "./mcp_prompt_command.ts";

/** What a command can reach. */
export interface CommandContext {
  /** The current session; `/new` and `/resume` replace it. */
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Shows long text through `$PAGER` when it does not fit the screen. */
  page(text: string): Promise<void>;
  /** Runs `task` with Ctrl-C tied to its signal, like a turn. */
  interruptible<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Replaces the session with a fresh one, same settings. */
  newSession(): Promise<void>;
  /** Lets the user pick a saved session and continues it. */
  resumeSession(): Promise<void>;
  /** Closes the current session and continues the saved session `id` (`/fork`). */
  continueSession(id: string): Promise<void>;
  /** Lets the next line be `continue with X` for one of `labels` (after `/arena`). */
  offerContinue?(labels: string[]): void;
  /** Lends the terminal to a child program (`/arena`; see arena_command.ts). */
  onTerminal?<T>(run: () => Promise<T>): Promise<T>;
  /** Reads one answer line (a picker's); null at end of input. */
  ask(prompt: string): Promise<string | null>;
  /** Hands the terminal's keys to a picker (`/model`); absent when input is not a terminal. */
  rawTerminal?<T>(run: (terminal: RawTerminal) => Promise<T>): Promise<T>;
  /** Plain mode: pickers are numbered lists answered through `ask` (plain_choices.ts). */
  numbered?: boolean;
  /** What the current session was opened from, to open another beside it (`/review`). */
  reviewBase(): ReviewBase;
  /**
   * Asks for the provider key `error` says is missing (a `MissingKeyError`) and stores it; true
   * once one is stored. Absent, or false, where no one can be asked.
   */
  enterKey?(error: unknown): Promise<boolean>;
  /**
   * Runs one turn as a typed prompt would (`/init`), through `send` when given (a custom
   * command's turn); undefined when it could not start.
   */
  runTurn(
    prompt: string,
    send?: (signal: AbortSignal) => Promise<PromptOutcome>,
  ): Promise<PromptOutcome | undefined>;
}

/** What the REPL does after a command: leave, send a prompt (an MCP prompt's), or go on. */
export type CommandResult = "exit" | { prompt: string } | undefined | void;

interface Command {
  name: string;
  summary: string;
  run(arg: string, ctx: CommandContext): Promise<CommandResult> | CommandResult;
}

const LATER: string[] = [];

/**
 * A command whose module loads when it first runs, so that the REPL's prompt does not wait for
 * it; its name and summary (for /help) are the module's own (commands_test.ts compares them).
 */
function deferred(name: string, summary: string, load: () => Promise<Command>): Command {
  return { name, summary, run: async (arg, ctx) => await (await load()).run(arg, ctx) };
}

const rewindCommand = (name: string) => () =>
  import("./rewind_command.ts").then((m) => m.REWIND_COMMANDS.find((c) => c.name === name)!);

const COMMANDS: Command[] = [
  {
    name: "help",
    summary: "list the commands",
    run: async (_, ctx) =>
      ctx.print(helpLines(ctx.style, [
        ...await promptHelpLines(ctx),
        ...await (await customCommands()).customHelpLines(ctx, builtinNames()),
      ])),
  },
  deferred(
    "status",
    "provider, model, harness, sandbox, session and context",
    () => import("./status_command.ts").then((m) => m.STATUS_COMMAND),
  ),
  deferred(
    "model",
    "pick a model, or switch: /model NAME or PROVIDER/NAME (NAME! if it is not listed)",
    () => import("./model_command.ts").then((m) => m.MODEL_COMMAND),
  ),
  { name: "harness", summary: "list the harnesses, or switch: /harness ID", run: harness },
  deferred(
    "permissions",
    "sandbox, approval and rules; /permissions MODE|POLICY, or allow|ask|deny RULE",
    () => import("./permissions_command.ts").then((m) => m.PERMISSIONS_COMMAND),
  ),
  { name: "diff", summary: "the working tree against HEAD, untracked files included", run: diff },
  deferred(
    "undo",
    "undo the last turn: restore the files it changed, take it out of the conversation",
    rewindCommand("undo"),
  ),
  deferred(
    "rewind",
    "go back to before a turn: its code, the conversation, or both",
    rewindCommand("rewind"),
  ),
  {
    name: "review",
    summary: "review changes in a fresh read-only session: pick what, or /review INSTRUCTIONS",
    run: review,
  },
  { name: "ps", summary: "background jobs", run: ps },
  { name: "stop", summary: "stop a background job: /stop ID", run: stop },
  { name: "new", summary: "start a fresh session with the same settings", run: fresh },
  { name: "compact", summary: "summarize the history to free context", run: compact },
  deferred(
    "image",
    "attach an image to the next prompt: /image PATH, or the clipboard's without one",
    () => import("./image_command.ts").then((m) => m.IMAGE_COMMAND),
  ),
  deferred(
    "init",
    "study the repository and write a first AGENTS.md (asks before replacing one)",
    () => import("./init_command.ts").then((m) => m.INIT_COMMAND),
  ),
  PLAN_COMMAND,
  deferred(
    "goal",
    "the session's goal: /goal OBJECTIVE sets it, /goal clear drops it",
    () => import("./goal_command.ts").then((m) => m.GOAL_COMMAND),
  ),
  { name: "resume", summary: "continue a saved session", run: (_, ctx) => ctx.resumeSession() },
  ...FORK_COMMANDS,
  deferred(
    "export",
    "save this conversation as Markdown (.html, .jsonl, .json for ATIF): /export [FILE]",
    () => import("./export_command.ts").then((m) => m.EXPORT_COMMAND),
  ),
  deferred(
    "arena",
    "race a prompt across harnesses and models; apply the best diff or continue one",
    () => import("./arena_command.ts").then((m) => m.ARENA_COMMAND),
  ),
  {
    name: "debug-config",
    summary:
      "effective config values and their origins; other agents' setup files read and skipped",
    run: debugConfig,
  },
  deferred(
    "commands",
    "the custom slash commands found, with their vendor and file",
    () =>
      customCommands().then(({ COMMANDS_COMMAND: c }) => ({
        ...c,
        run: (arg, ctx) => c.run(arg, { ...ctx, builtins: builtinNames() }),
      })),
  ),
  deferred(
    "skills",
    "the skills found, with their descriptions and where each comes from",
    () => import("./skills_command.ts").then((m) => m.SKILLS_COMMAND),
  ),
  deferred(
    "agents",
    "sub-agent types: built-in and defined, with the file each comes from",
    () => import("./agents_command.ts").then((m) => m.AGENTS_COMMAND),
  ),
  deferred(
    "mcp",
    "MCP servers: state, transport and tools; /mcp ID shows one in full",
    () => import("./mcp_command.ts").then((m) => m.MCP_COMMAND),
  ),
  deferred(
    "hooks",
    "hooks: event, matcher, command, source and trust; /hooks trust N|all",
    () => import("./hooks_command.ts").then((m) => m.HOOKS_COMMAND),
  ),
  { name: "exit", summary: "leave (also /quit, Ctrl-D)", run: () => "exit" },
  { name: "quit", summary: "leave", run: () => "exit" },
];

/** Each command's name and summary, as /help lists them. */
export function commandSummaries(): { name: string; summary: string }[] {
  return COMMANDS.map(({ name, summary }) => ({ name, summary }));
}

/** The names of the built-in commands, which custom commands cannot take. */
function builtinNames(): string[] {
  return COMMANDS.map((c) => c.name);
}

const customCommands = () => import("./custom_commands.ts");

/** True when `line` is a slash command rather than a message (`/git:oneline` included). */
export function isCommand(line: string): boolean {
  return /^\/[a-z][\w:.-]*(\s|$)/i.test(line.trim());
}

/** Runs the slash command in `line`. */
export async function runCommand(line: string, ctx: CommandContext): Promise<CommandResult> {
  const trimmed = line.trim();
  const space = trimmed.search(/\s/);
  const name = (space === -1 ? trimmed.slice(1) : trimmed.slice(1, space)).toLowerCase();
  const arg = space === -1 ? "" : trimmed.slice(space + 1).trim();
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return await command.run(arg, ctx);
  if (isPromptCommand(name)) {
    const prompt = await runPromptCommand(trimmed.slice(1).split(/\s/, 1)[0], arg, ctx);
    return prompt === undefined ? undefined : { prompt };
  }
  if (await (await customCommands()).runCustomCommand(trimmed, builtinNames(), ctx)) return;
  if (LATER.includes(name)) {
    ctx.print([`/${name} comes in a later release`]);
    return;
  }
  const near = nearestName(name, [...COMMANDS.map((c) => c.name), ...LATER]);
  ctx.print([
    `Unknown command "/${name}"${near ? `; did you mean /${near}?` : ""} (/help lists them)`,
  ]);
}

function helpLines(style: Style, promptLines: string[]): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    ...COMMANDS.map((c) => `${style.bold(`/${c.name}`.padEnd(width))} ${c.summary}`),
    ...promptLines,
    ...(LATER.length
      ? [style.dim(`/${LATER.join(", /")} come${LATER.length === 1 ? "s" : ""} in a later release`)]
      : []),
    style.dim("A line ending in \\ continues on the next one; Esc or Ctrl-C stops a turn"),
  ];
}

async function harness(arg: string, ctx: CommandContext): Promise<void> {
  const session = ctx.session();
  if (arg) {
    await session.switchHarness(arg);
    return;
  }
  const list = terminalSafe(await session.harnesses());
  const width = Math.max(...list.map((h) => h.id.length));
  ctx.print([
    ...list.map((h) => {
      const mark = h.current ? "*" : " ";
      const auto = h.automatic ? ctx.style.dim(" (automatic)") : "";
      return `${mark} ${h.id.padEnd(width)}  ${h.label}${auto}`;
    }),
    ...whyLine(session.status().harnessReason),
    ctx.style.dim("* in use; /harness ID switches, keeping the history"),
  ]);
}

/** Why the harness in use was chosen, for `/harness`. */
function whyLine(reason: string | undefined): string[] {
  return reason ? [`in use because: ${terminalSafe(reason)}`] : [];
}

async function diff(_: string, ctx: CommandContext): Promise<void> {
  const text = await ctx.session().diff();
  if (text.trim() === "") return ctx.print(["No changes against HEAD"]);
  await ctx.page(colorDiff(text.replace(/\n$/, ""), ctx.style));
}

async function review(arg: string, ctx: CommandContext): Promise<void> {
  const { style } = ctx;
  const [{ pickReviewTarget }, { runReviewTurn, withReviewSession }] = await Promise.all([
    import("./review_picker.ts"),
    import("../../review/review.ts"),
  ]);
  const target = arg
    ? { kind: "custom" as const, instructions: arg }
    : await pickReviewTarget({ git: ctx.session().git, print: ctx.print, ask: ctx.ask, style });
  if (!target) return;
  const base = ctx.reviewBase();
  // The answer is a JSON object: what the model writes is shown only beside its tool calls.
  const onEvent = (event: SessionEvent) => {
    if (event.type === "text_delta") return;
    if (event.type === "assistant_message") {
      if (!event.message.blocks.some((b) => b.type === "tool_call")) return;
    }
    base.io.onEvent(event);
  };
  const opening = reconfigured(base.opening, { ephemeral: true });
  const review = { ...base, opening, io: { onEvent } };
  await withReviewSession(review, target, async (session, request) => {
    ctx.print([style.bold(`Reviewing ${terminalText(request.hint)}`)]);
    const result = await ctx.interruptible((signal) => runReviewTurn(session, request, signal));
    if (result.text !== undefined) ctx.print(["", ...terminalText(result.text).split("\n")]);
  });
}

function ps(_: string, ctx: CommandContext): void {
  const jobs = terminalSafe(ctx.session().jobs());
  if (jobs.length === 0) return ctx.print(["No background jobs"]);
  const now = Date.now();
  ctx.print(jobs.map((j) => {
    const state = j.status === "running"
      ? "running"
      : j.signal
      ? `ended by ${j.signal}`
      : `exited ${j.exitCode}`;
    return `${j.id}  ${state.padEnd(12)} ${
      formatDuration(now - j.startedAt).padEnd(9)
    } ${j.command}`;
  }));
}

async function stop(arg: string, ctx: CommandContext): Promise<void> {
  if (!arg) return ctx.print(["Give the job id: /stop ID (/ps lists them)"]);
  const job = terminalSafe(await ctx.session().stopJob(arg));
  ctx.print([job.wasRunning ? `Stopped ${job.id}: ${job.command}` : `${job.id} had already ended`]);
}

async function fresh(_: string, ctx: CommandContext): Promise<void> {
  await ctx.newSession();
}

async function compact(_: string, ctx: CommandContext): Promise<void> {
  await ctx.interruptible((signal) => ctx.session().compact(signal));
}

async function debugConfig(_: string, ctx: CommandContext): Promise<void> {
  ctx.print(terminalText(await ctx.session().debugConfig()).replace(/\n$/, "").split("\n"));
}
