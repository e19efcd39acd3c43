/**
 * The typed errors of `resolveOpening()` (opening.ts): each carries what a front end needs to word
 * it in its own style (ACP and the MCP server point at their own requests); the message and hint
 * are the command line's. `UntrustedDirectoryError` (errors.ts) is the fourth.
 */
import { SessionError } from "../store/mod.ts";
import type { ResumeTarget } from "./types.ts";

/** One saved session a name or an id prefix could mean. */
export interface SessionCandidate {
  id: string;
  /** Its name (`/rename`), when it has one. */
  name?: string;
  cwd: string;
  created: Date;
}

/** No saved session matches what was asked for (an id, a name, a file, or `--last`). */
export class SessionNotFoundError extends SessionError {
  readonly target: ResumeTarget;
  constructor(target: ResumeTarget, message: string, hint: string) {
    super(message, { hint });
    this.target = target;
  }
}

/** A name or an id prefix matches more than one saved session. */
export class AmbiguousSessionError extends SessionError {
  /** What was asked for. */
  readonly ref: string;
  /** The sessions it matches, newest first. */
  readonly candidates: SessionCandidate[];
  constructor(ref: string, candidates: SessionCandidate[]) {
    const listed = candidates.slice(0, 10).map(candidateText).join("; ");
    const more = candidates.length > 10 ? `; and ${candidates.length - 10} more` : "";
    super(`"${ref}" matches ${candidates.length} saved sessions: ${listed}${more}`, {
      hint: "Give the session id (or enough of its first characters to tell them apart)",
    });
    this.ref = ref;
    this.candidates = candidates;
  }
}

/** Where only session ids are accepted (ACP, the MCP server), something else was given. */
export class NotASessionIdError extends SessionError {
  readonly ref: string;
  constructor(ref: string) {
    super(`${JSON.stringify(ref)} is no session id`, {
      hint: "Give the session id (a UUID) a new session was given, never a file path or a name",
    });
    this.ref = ref;
  }
}

/** One candidate in a line: its id, name, directory and start. */
function candidateText(c: SessionCandidate): string {
  const name = c.name === undefined ? "" : ` "${c.name}"`;
  return `${c.id}${name} in "${c.cwd}", started ${c.created.toISOString().slice(0, 16)}Z`;
}
