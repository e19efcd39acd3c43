/**
 * The one resume lookup: which saved session a `ResumeTarget` names. Exec, the REPL, `/resume`
 * and the editor protocols all go through it, so `--last` means the same everywhere: the newest
 * session that holds a message the user typed (a fresh `/new` session is passed over).
 */
import {
  findSessions,
  resolveSession,
  SessionError,
  type SessionOrigin,
  type SessionSummary,
  sessionSummary,
} from "../store/mod.ts";
import type { ResumeTarget } from "./types.ts";

/** A saved session found for a target: its file and its id. */
export interface FoundSession {
  file: string;
  id: string;
}

/** Where to look, and how the error for "none found" tells the user to start one. */
export interface ResumeLookup {
  /** The working directory: `{ last }` without `all` looks only at its sessions. */
  cwd: string;
  /** The interpreter home, whose `sessions` folder is searched. */
  home: string;
  /** The command that starts a session, for the hint; default `interpreter`. */
  startCommand?: string;
}

/** Finds the session `target` names; a `SessionError` naming the cause when there is none. */
export async function findResumable(
  target: ResumeTarget,
  lookup: ResumeLookup,
): Promise<FoundSession> {
  if ("id" in target) {
    const file = await resolveSession(lookup.home, target.id);
    return { file, id: (await sessionSummary(file)).id };
  }
  const [newest] = await resumableSessions(lookup.home, {
    cwd: target.all ? undefined : lookup.cwd,
    origin: target.origin,
    limit: 1,
  });
  if (newest) return { file: newest.file, id: newest.id };
  throw noSavedSession(target, lookup);
}

/** The sessions one can resume (those that hold a user message), newest first. */
export async function resumableSessions(
  home: string,
  opts: { cwd?: string; origin?: SessionOrigin; limit?: number } = {},
): Promise<SessionSummary[]> {
  return await findSessions(home, { ...opts, withPrompt: true });
}

function noSavedSession(
  target: Extract<ResumeTarget, { last: true }>,
  lookup: ResumeLookup,
): SessionError {
  const what = target.origin === "repl" ? "REPL session" : "session";
  const start = `start one with "${lookup.startCommand ?? "interpreter"}"`;
  return new SessionError(`No saved ${what}${target.all ? "" : ` for "${lookup.cwd}"`}`, {
    hint: target.all
      ? start.charAt(0).toUpperCase() + start.slice(1)
      : `Add --all to look in every directory, or ${start}`,
  });
}
