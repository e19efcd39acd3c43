/**
 * `/undo` and `/rewind`: going back to before a turn. `/undo` restores the files the last turn
 * changed and takes it out of the conversation; `/rewind` lists the turns, then restores the
 * code, the conversation or both to before the one picked (`/rewind N code|conversation|both`
 * skips the questions). Files the user changed since the agent left them are overwritten only
 * after a yes.
 */
import { terminalText } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import type {
  CheckpointTurn,
  ConfirmOverwrite,
  RewindChoice,
  RewindResult,
  StopRunning,
} from "../../session/checkpoints/checkpoint_types.ts";
import type { Style } from "../term/style.ts";

/** What `/undo` and `/rewind` use of the REPL's command context. */
export interface RewindContext {
  session(): Session;
  print(lines: string[]): void;
  /** One answer line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  style: Style;
}

/** `/undo` and `/rewind`, as the command list takes them. */
export const REWIND_COMMANDS = [
  {
    name: "undo",
    summary: "undo the last turn: restore the files it changed, take it out of the conversation",
    run: undo,
  },
  {
    name: "rewind",
    summary: "go back to before a turn: its code, the conversation, or both",
    run: rewind,
  },
];

const CHOICES: Record<string, RewindChoice> = {
  code: { code: true, conversation: false },
  conversation: { code: false, conversation: true },
  both: { code: true, conversation: true },
};

async function undo(_arg: string, ctx: RewindContext): Promise<void> {
  const result = await ctx.session().undo(askOverwrite(ctx), askStop(ctx));
  ctx.print(resultLines(`Undid "${terminalText(result.prompt)}"`, result, ctx.style));
}

async function rewind(arg: string, ctx: RewindContext): Promise<void> {
  const session = ctx.session();
  const { turns, notes } = await session.checkpoints();
  const [given, givenChoice] = arg.split(/\s+/).filter(Boolean);
  if (turns.length === 0) {
    ctx.print(["No turns to go back to yet", ...notes.map((n) => ctx.style.dim(terminalText(n)))]);
    return;
  }
  if (!given) {
    ctx.print([
      "Go back to before which turn?",
      ...turns.map((t) => turnLine(t, ctx.style)),
      ...notes.map((n) => ctx.style.dim(terminalText(n))),
    ]);
  }
  const answer = given ?? (await ctx.ask("Turn number (Enter to cancel) › "))?.trim();
  if (!answer) return;
  const turn = Number(answer);
  if (!Number.isInteger(turn) || turn < 1 || turn > turns.length) {
    throw Object.assign(new Error(`There is no turn ${terminalText(answer)}`), {
      hint: `Pick a number from 1 to ${turns.length} (/rewind lists the turns)`,
    });
  }
  const choice = givenChoice === undefined ? await askChoice(ctx) : choiceOf(givenChoice);
  if (choice === null) return;
  if (!choice) {
    throw Object.assign(new Error(`Unknown choice "${terminalText(givenChoice ?? "")}"`), {
      hint: "Say code, conversation or both: /rewind N code",
    });
  }
  const result = await session.rewind(turn, choice, askOverwrite(ctx), askStop(ctx));
  const what = choice.code && choice.conversation
    ? "code and conversation"
    : choice.code
    ? "code"
    : "conversation";
  const heading = `Rewound the ${what} to before turn ${turn} "${terminalText(result.prompt)}"`;
  ctx.print(resultLines(heading, result, ctx.style));
}

/** `  2  fix the test  · a.txt, b.txt`, with what limits going back to it. */
function turnLine(t: CheckpointTurn, style: Style): string {
  const shown = t.files.slice(0, 3).map(terminalText).join(", ");
  const more = t.files.length > 3 ? ` +${t.files.length - 3} more` : "";
  const files = t.files.length ? `${shown}${more}` : "no files changed";
  const limits = [
    t.partial ? `not every change is known: ${t.partial}` : "",
    t.noConversation ? `code only: ${t.noConversation}` : "",
  ].filter(Boolean).map((s) => terminalText(s));
  return `${String(t.turn).padStart(3)}  ${terminalText(t.prompt)}  ${style.dim(`· ${files}`)}` +
    (limits.length ? style.dim(` (${limits.join("; ")})`) : "");
}

/** Asks code, conversation or both: the choice, null when cancelled, undefined when unknown. */
async function askChoice(ctx: RewindContext): Promise<RewindChoice | null | undefined> {
  const answer = (await ctx.ask("Restore code, conversation or both? (Enter to cancel) › "))
    ?.trim();
  if (!answer) return null;
  const choice = choiceOf(answer);
  if (!choice) ctx.print([`Unknown choice "${terminalText(answer)}"; nothing was changed`]);
  return choice ?? null;
}

/** The choice `word` names: code, conversation or both, or an unambiguous start of one. */
function choiceOf(word: string): RewindChoice | undefined {
  const lower = word.toLowerCase();
  const names = Object.keys(CHOICES).filter((name) => name.startsWith(lower));
  const name = lower === "c" ? "code" : names.length === 1 ? names[0] : undefined;
  return name ? CHOICES[name] : undefined;
}

/** Asks before overwriting files the user changed since the agent left them. */
function askOverwrite(ctx: RewindContext): ConfirmOverwrite {
  return async (files) => {
    const names = files.map(terminalText);
    const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names;
    ctx.print([
      `${shown.join(", ")} changed since the agent left ${files.length === 1 ? "it" : "them"}`,
    ]);
    const answer = (await ctx.ask("Overwrite? [y/N] › "))?.trim() ?? "";
    return /^y(es)?$/i.test(answer);
  };
}

/**
 * Lists what runs beside the session (background jobs, the terminal) and asks to stop it before
 * files are restored: a process running meanwhile could change the folders being written.
 */
function askStop(ctx: RewindContext): StopRunning {
  return async (running) => {
    ctx.print([
      `${running.length === 1 ? "This runs" : "These run"} in the background and could change ` +
      "the files while they are restored:",
      ...running.map((line) => `  ${terminalText(line)}`),
    ]);
    const answer =
      (await ctx.ask(`Stop ${running.length === 1 ? "it" : "them"} and restore? [y/N] › `))
        ?.trim() ?? "";
    return /^y(es)?$/i.test(answer);
  };
}

/** What a rewind did, one line each. */
function resultLines(heading: string, result: RewindResult, style: Style): string[] {
  const list = (paths: string[]) => paths.map(terminalText).join(", ");
  const done = [
    result.restored.length ? `restored ${list(result.restored)}` : "",
    result.removed.length ? `removed ${list(result.removed)}` : "",
    result.turnsRemoved
      ? `took ${result.turnsRemoved} turn${result.turnsRemoved === 1 ? "" : "s"} out of the ` +
        "conversation"
      : "",
  ].filter(Boolean);
  return [
    `${heading}: ${done.length ? done.join("; ") : "nothing to change"}`,
    ...(result.kept.length ? [style.dim(`Kept your changes to ${list(result.kept)}`)] : []),
    ...(result.unconfined ? [`warning: ${terminalText(result.unconfined)}`] : []),
    ...result.failed.map(({ path, why }) =>
      style.red(`Cannot restore ${terminalText(path)}: ${terminalText(why)}`)
    ),
  ];
}
