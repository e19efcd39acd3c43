/** The errors a session raises to its front end. */
import { UserError } from "../errors.ts";

/** `prompt()` (or `compact()`) was called while a turn of the same session was running. */
export class TurnInProgressError extends UserError {
  /** @param what what could not start: "a turn" unless said otherwise. */
  constructor(what = "a turn") {
    super(`Cannot start ${what} while a turn is running in this session`, {
      hint: "Wait for the running turn to end (or cancel it), then send the message again",
    });
  }
}

/** The working directory is not inside a git repository, and the trust check was not skipped. */
export class UntrustedDirectoryError extends UserError {
  /** The directory refused. */
  readonly cwd: string;
  constructor(cwd: string) {
    super("Not inside a trusted directory and --skip-git-repo-check was not specified", {
      hint: "Run inside a git repository, or pass --skip-git-repo-check",
    });
    this.cwd = cwd;
  }
}
