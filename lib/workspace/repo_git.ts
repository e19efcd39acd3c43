/** Git commands the agent runs itself for a review, at the repository root, through safe git. */
import { join } from "node:path";
import { UserError } from "../errors.ts";
import type { GitResult, GitRunner } from "./safe_git.ts";
import { findGitRoot } from "./git_root.ts";

/** What a session runs its own git commands with. */
export interface GitAccess {
  git: GitRunner;
  /** True for a file that changed while an earlier session ran and is not trusted yet. */
  isHeldBack: (path: string) => boolean;
}

/**
 * Runs `git ARGS` at the root of the repository around `cwd`; refuses outside a repository,
 * in one whose `.git` is held back, and when the safe runner could not run git.
 */
export async function repoGit(access: GitAccess, cwd: string, args: string[]): Promise<GitResult> {
  const root = await findGitRoot(cwd);
  if (!root) {
    throw new UserError(`"${cwd}" is not inside a git repository`, {
      hint: "Run it inside a git repository, or give -C DIR",
    });
  }
  const dotGit = join(root, ".git");
  if (access.isHeldBack(dotGit) || access.isHeldBack(join(dotGit, "config"))) {
    throw new UserError(`Git is not run in "${root}": its .git changed while a session ran`, {
      hint: 'Look at what changed, then run "interpreter trust-changes"',
    });
  }
  const result = await access.git.run(args, root);
  if (result.skipped) throw new UserError(`Cannot run git ${args[0]}: ${result.skipped}`);
  return result;
}

/** `Session.git`: one git command at the repository root. */
export type RepoGit = (args: string[]) => Promise<GitResult>;
