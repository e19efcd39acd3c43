/**
 * What a review looks at and the user message that asks for it. The diff is computed here, with
 * the session's safe git, and sent with the request so the reviewer starts from the real change.
 */
import { UserError } from "../errors.ts";
import type { RepoGit } from "../workspace/repo_git.ts";

/** `--uncommitted`, `--base BRANCH`, `--commit SHA [--title T]`, or free-form instructions. */
export type ReviewTarget =
  | { kind: "uncommitted" }
  | { kind: "base"; branch: string }
  | { kind: "commit"; sha: string; title?: string }
  | { kind: "custom"; instructions: string };

/** The user message of a review turn, and the line that tells the user what is reviewed. */
export interface ReviewRequest {
  message: string;
  /** `current changes`, `changes against 'main'`, `commit abc1234: Title`, … */
  hint: string;
}

/** What building a request needs from the session. */
export interface ReviewGit {
  git: RepoGit;
  /** The working tree against HEAD, untracked files included. */
  diff(): Promise<string>;
}

/** Diffs longer than this are cut; the reviewer is told how to read the rest. */
const MAX_DIFF_CHARS = 120_000;

/** Builds the request for `target`, running the git commands it needs. */
export async function buildReviewRequest(
  target: ReviewTarget,
  session: ReviewGit,
): Promise<ReviewRequest> {
  switch (target.kind) {
    case "uncommitted": {
      const diff = await session.diff();
      if (!diff.trim()) {
        throw new UserError("Nothing to review: the working tree has no changes against HEAD", {
          hint: "Review a commit with --commit SHA or a branch with --base BRANCH",
        });
      }
      return {
        hint: "current changes",
        message: "Review the current code changes: staged, unstaged and untracked files, " +
          "against HEAD. Give prioritized findings.\n\n" +
          withDiff(
            diff,
            "`git diff HEAD`, with each untracked file shown as added",
            "git diff HEAD",
          ),
      };
    }
    case "base":
      return await baseRequest(target.branch, session.git);
    case "commit":
      return await commitRequest(target.sha, target.title, session.git);
    case "custom": {
      const instructions = target.instructions.trim();
      if (!instructions) {
        throw new UserError("The review instructions are empty", {
          hint: "Say what to review, or use --uncommitted, --base BRANCH or --commit SHA",
        });
      }
      return { hint: firstLine(instructions), message: instructions };
    }
  }
}

async function baseRequest(branch: string, git: RepoGit): Promise<ReviewRequest> {
  await resolveCommit(git, branch, "branch");
  const base = await git(["merge-base", "HEAD", branch]);
  const sha = base.stdout.trim();
  if (!base.ok || !sha) {
    throw new UserError(`No merge base between HEAD and "${branch}"`, {
      hint: "The two histories share no commit; review a commit with --commit SHA instead",
    });
  }
  const diff = await git(["diff", "--no-color", sha]);
  if (!diff.stdout.trim()) {
    throw new UserError(`Nothing to review: no changes against "${branch}" (merge base ${sha})`, {
      hint: "Check out the branch to review, or use --uncommitted",
    });
  }
  return {
    hint: `changes against '${branch}'`,
    message: `Review the code changes against the base branch '${branch}'. The merge base of ` +
      `HEAD and '${branch}' is commit ${sha}; the changes are everything since it, uncommitted ` +
      "edits of tracked files included. Give prioritized, actionable findings.\n\n" +
      withDiff(diff.stdout, `\`git diff ${sha}\``, `git diff ${sha}`),
  };
}

async function commitRequest(
  ref: string,
  title: string | undefined,
  git: RepoGit,
): Promise<ReviewRequest> {
  const sha = await resolveCommit(git, ref, "commit");
  const subject = title ?? (await git(["log", "-1", "--format=%s", sha])).stdout.trim();
  const shown = await git(["show", "--no-color", "--format=medium", sha]);
  const named = title ? ` ("${title}")` : "";
  return {
    hint: `commit ${sha.slice(0, 7)}${subject ? `: ${subject}` : ""}`,
    message: `Review the code changes introduced by commit ${sha}${named}. Give prioritized, ` +
      "actionable findings.\n\n" + withDiff(shown.stdout, `\`git show ${sha}\``, `git show ${sha}`),
  };
}

/** The full commit id `ref` names, or a UserError saying there is none. */
async function resolveCommit(git: RepoGit, ref: string, what: string): Promise<string> {
  if (ref.startsWith("-")) {
    throw new UserError(`"${ref}" is not a ${what} name`, { hint: `Give the ${what} to review` });
  }
  const found = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  const sha = found.stdout.trim();
  if (!found.ok || !sha) {
    throw new UserError(`No ${what} "${ref}" in this repository`, {
      hint: what === "branch" ? '"git branch -a" lists the branches' : '"git log" lists commits',
    });
  }
  return sha;
}

/** `diff` in a fence no line of it can close, cut at MAX_DIFF_CHARS with a note. */
function withDiff(diff: string, source: string, command: string): string {
  const cut = diff.length > MAX_DIFF_CHARS;
  const text = cut ? diff.slice(0, MAX_DIFF_CHARS) : diff;
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const note = cut
    ? `\n\nThe diff is cut after ${MAX_DIFF_CHARS} of ${diff.length} characters; run ` +
      `\`${command}\` to read the rest.`
    : "";
  return `The changes (${source}):\n\n${fence}diff\n${text.replace(/\n$/, "")}\n${fence}${note}`;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}
