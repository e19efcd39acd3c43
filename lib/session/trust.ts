/**
 * The trust check every front end that runs the agent applies before it opens a session: the
 * agent works in a git repository, where what it changes can be seen and undone, unless the
 * caller said otherwise (`SessionConfig.skipGitRepoCheck`).
 */
import { findGitRoot } from "../workspace/git_root.ts";
import { UntrustedDirectoryError } from "./errors.ts";
import type { SessionConfig } from "./types.ts";

/** Throws when `config.cwd` is not inside a git repository and the check is not skipped. */
export async function checkTrustedDirectory(
  config: Pick<SessionConfig, "cwd" | "skipGitRepoCheck">,
): Promise<void> {
  if (config.skipGitRepoCheck || (await findGitRoot(config.cwd))) return;
  throw new UntrustedDirectoryError(config.cwd);
}
