/**
 * `/fork [N]` and `/rename NAME`: copy the session (all of it, or up to the end of turn N) into a
 * new one and continue there, the original left as it was; name one. (`interpreter fork` copies
 * through `resolveOpening()` and tells what it copied with `forkedLines()`.)
 */
import { terminalText } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import { nameSavedSession, savedSessionName, SessionError } from "../../session/saved_sessions.ts";
import type { ForkedSession } from "../../store/mod.ts";
import type { Style } from "../term/style.ts";

/** What `/fork` and `/rename` use of the REPL's command context. */
export interface ForkContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
  /** Closes the current session and continues the saved session `id`. */
  continueSession(id: string): Promise<void>;
}

/** `/fork` and `/rename`, as the command list takes them. */
export const FORK_COMMANDS = [
  {
    name: "fork",
    summary: "continue in a copy of this session, the original left as it is: /fork [TURN]",
    run: fork,
  },
  { name: "rename", summary: "name this session (shown by /resume): /rename NAME", run: rename },
];

async function fork(arg: string, ctx: ForkContext): Promise<void> {
  const session = ctx.session();
  const { sessionFile, sessionId } = session.status();
  if (!sessionFile || !sessionId) {
    return ctx.print(["This session is not saved, so there is nothing to fork"]);
  }
  const turn = arg === "" ? undefined : Number(arg);
  if (turn !== undefined && !/^\d+$/.test(arg)) {
    throw new SessionError(`Cannot fork at "${arg}": it is not a turn number`, {
      hint: "Give the number of a turn (/fork 2), or nothing to copy the whole session",
    });
  }
  const forked = await session.fork(turn);
  await ctx.continueSession(forked.id);
  ctx.print(forkedLines(forked, turn, ctx.style));
}

/** What the user is told about a fork: what was copied, where it went, that the original is kept. */
export function forkedLines(
  forked: ForkedSession,
  turn: number | undefined,
  style: Style,
): string[] {
  const what = turn === undefined ? "" : ` up to turn ${turn}`;
  const name = forked.name ? ` "${terminalText(forked.name)}"` : "";
  return [
    `Forked session ${forked.from.id}${what} into ${forked.id}${name}; ` +
    "you are now in the copy, and the original is unchanged",
    ...forked.notes.map((note) => style.dim(terminalText(note))),
  ];
}

async function rename(arg: string, ctx: ForkContext): Promise<void> {
  const session = ctx.session();
  const id = session.status().sessionId;
  if (!id) return ctx.print(["This session is not saved, so it cannot be named"]);
  if (!arg) {
    const name = await savedSessionName(session.home, id);
    return ctx.print([
      name ? `This session is named "${terminalText(name)}"` : "This session has no name",
      ctx.style.dim("/rename NAME names it; the name shows in /resume and interpreter resume"),
    ]);
  }
  const saved = await nameSavedSession(session.home, id, arg);
  ctx.print([`This session is now named "${terminalText(saved ?? "")}"`]);
}
