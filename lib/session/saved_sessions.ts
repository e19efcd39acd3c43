/**
 * The saved sessions as front ends list them (ACP's `session/list`, the resume picker): newest
 * first, those one can resume, each with its name (`/rename`) when it has one.
 */
import { readSessionNames, type SessionSummary, setSessionName } from "../store/mod.ts";
import { resumableSessions } from "./resume.ts";

export { isSessionId, SessionError } from "../store/mod.ts";

/** One saved session one can resume, with its name when it has one. */
export interface SavedSessionListing extends SessionSummary {
  name?: string;
}

/** The resumable sessions (of `cwd` when given), and why names are missing if they could not be read. */
export async function listSavedSessions(
  home: string,
  opts: { cwd?: string; limit?: number } = {},
): Promise<{ sessions: SavedSessionListing[]; namesError?: Error }> {
  const sessions = await resumableSessions(home, opts);
  let namesError: Error | undefined;
  const names = await readSessionNames(home).catch((error: Error) => {
    namesError = error;
    return new Map<string, string>();
  });
  const named = sessions.map((s) => {
    const name = names.get(s.id);
    return name === undefined ? s : { ...s, name };
  });
  return namesError ? { sessions: named, namesError } : { sessions: named };
}

/** The name `/rename` gave session `id`; undefined when it has none. */
export async function savedSessionName(home: string, id: string): Promise<string | undefined> {
  return (await readSessionNames(home)).get(id);
}

/** Names session `id` (`/rename`), or unnames it; returns the name as saved (checked, trimmed). */
export function nameSavedSession(
  home: string,
  id: string,
  name: string | undefined,
): Promise<string | undefined> {
  return setSessionName(home, id, name);
}
