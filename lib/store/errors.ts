/** The error a session file raises when it cannot be found or read. */
import { UserError } from "../errors.ts";

/** A session cannot be found, or its file cannot be read as a session. */
export class SessionError extends UserError {
  /** The session file concerned, when there is one. */
  readonly file?: string;
  /** The 1-based line of `file` that failed, when one did. */
  readonly line?: number;
  constructor(
    message: string,
    opts: { hint?: string; file?: string; line?: number; cause?: unknown } = {},
  ) {
    super(message, opts);
    this.file = opts.file;
    this.line = opts.line;
  }
}
