/**
 * Errors in the REPL's words: the session's errors name command-line flags in their hints
 * (`--harness`, `--model`, `-c model_provider=...`), of no use at the prompt, so the REPL words
 * its own hints, naming the slash commands.
 */
import { MissingKeyError } from "../../config/auth.ts";
import { UserError } from "../../errors.ts";
import { UnlistedModelError, WireMismatchError } from "../../session/errors.ts";
import type { Session } from "../../session/types.ts";

/** `error` with a hint for the REPL prompt when it is one of those the session words for flags. */
export function inReplTerms(error: unknown): unknown {
  if (error instanceof WireMismatchError) {
    const quoted = error.supported.map((w) => `"${w}"`);
    const wires = quoted.length > 1 ? `one of ${quoted.join(", ")}` : quoted.join("");
    return reworded(
      error,
      `Switch to a model of a provider whose wire_api is ${wires} (/model), or to a harness ` +
        `that speaks "${error.wire}" (/harness lists them)`,
    );
  }
  if (error instanceof MissingKeyError) {
    const { envKey } = error.settings;
    return reworded(
      error,
      `Set ${envKey} (export ${envKey}=...) and start interpreter again, or switch to a ` +
        "provider whose key is set (/model lists them)",
    );
  }
  if (error instanceof UnlistedModelError) {
    const near = error.nearest.map((spec) => `/model ${spec}`);
    return reworded(
      error,
      (near.length ? `Did you mean ${near.join(" or ")}? ` : "") +
        `/model ${error.provider}/ lists its models; /model ${error.spec}! uses the name as given`,
    );
  }
  return error;
}

function reworded(error: Error, hint: string): UserError {
  return new UserError(error.message, { hint, cause: error });
}

/** Said when the REPL is left: how to come back to the session; nothing when nothing was saved. */
export function resumeHint(session: Session | undefined): string {
  const { sessionId, sessionFile } = session?.status() ?? {};
  if (!sessionId || !sessionFile) return "";
  try {
    Deno.statSync(sessionFile);
  } catch {
    return "";
  }
  return `To resume this session: interpreter resume ${sessionId}\n`;
}

/**
 * `/arena continue X` for a line `continue with X` (or `continue X`) typed just after an arena
 * whose contestants `labels` could be continued; undefined for any other line.
 */
export function arenaContinueLine(line: string, labels: string[] | undefined): string | undefined {
  const label = /^\s*continue\s+(?:with\s+)?([a-z])\s*$/i.exec(line)?.[1]?.toLowerCase();
  return label && labels?.includes(label) ? `/arena continue ${label}` : undefined;
}
