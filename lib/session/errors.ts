/** The errors a session raises to its front end. */
import { HarnessError, UserError } from "../errors.ts";

/** A harness cannot run over the wire API of the provider (a front end may word its own hint). */
export class WireMismatchError extends HarnessError {
  readonly harness: string;
  readonly wire: string;
  /** The wire APIs the harness supports. */
  readonly supported: string[];
  constructor(harness: string, wire: string, supported: string[]) {
    super(`wire_api = "${wire}" is not supported by harness = "${harness}"`, {
      hint: `Use a provider whose wire_api is one of ${
        supported.map((w) => `"${w}"`).join(", ")
      }, or choose another harness with --harness`,
    });
    this.harness = harness;
    this.wire = wire;
    this.supported = supported;
  }
}

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

/**
 * A model switched to by hand is not in the list at hand for its provider (the model catalog's,
 * or the server's fetched earlier); `NAME!` takes the name as given. A front end may word its own
 * hint from the fields.
 */
export class UnlistedModelError extends UserError {
  /** The name as asked for, without the provider: "gpt-4.1-mnii". */
  readonly model: string;
  /** The provider id the name was looked up at. */
  readonly provider: string;
  /** What was asked for: "NAME" or "PROVIDER/NAME". */
  readonly spec: string;
  /** Which list lacks it. */
  readonly list: "catalog" | "server";
  /** The nearest listed names, nearest first, in the form asked for (with "PROVIDER/" if given). */
  readonly nearest: string[];
  constructor(
    at: { model: string; provider: string; spec: string },
    list: "catalog" | "server",
    nearest: string[],
  ) {
    const where = list === "server" ? "the server's list" : "the model catalog";
    super(`Unknown model "${at.model}" for provider "${at.provider}": it is not in ${where}`, {
      hint: (nearest.length ? `Did you mean ${nearest.join(" or ")}? ` : "") +
        `"${at.spec}!" uses the name as given`,
    });
    this.model = at.model;
    this.provider = at.provider;
    this.spec = at.spec;
    this.list = list;
    this.nearest = nearest;
  }
}
