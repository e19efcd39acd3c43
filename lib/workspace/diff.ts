/** `/diff`: the working tree against HEAD, untracked files included, through the safe git runner. */
import { join } from "node:path";
import type { GitRunner } from "./safe_git.ts";
import { findGitRoot } from "./git_root.ts";

/** The unified diff of every change since HEAD; "" when there is none. */
export async function workingTreeDiff(
  git: GitRunner,
  cwd: string,
  isHeldBack: (path: string) => boolean,
): Promise<string> {
  const root = await findGitRoot(cwd);
  if (!root) throw new Error(`Cannot show a diff: "${cwd}" is not inside a git repository`);
  if (isHeldBack(join(root, ".git")) || isHeldBack(join(root, ".git", "config"))) {
    throw new Error(
      "Cannot show a diff: the repository changed while an earlier session ran; " +
        'review it, then run "interpreter trust-changes"',
    );
  }
  const tracked = await git.run(["diff", "HEAD", "--no-color"], root);
  if (tracked.skipped) throw new Error(`Cannot show a diff: ${tracked.skipped}`);
  const untracked = await git.run(["ls-files", "--others", "--exclude-standard", "-z"], root);
  const parts = [tracked.ok ? tracked.stdout : ""];
  for (const file of untracked.stdout.split("\0").filter(Boolean)) {
    const added = await git.run(
      ["diff", "--no-index", "--no-color", "--", "/dev/null", file],
      root,
    );
    parts.push(added.stdout);
  }
  return parts.join("");
}
