/** `/review` without an argument: the four targets to pick from, then a branch or a commit. */
import { terminalText } from "../../approval/visible.ts";
import type { Style } from "../term/style.ts";
import type { RepoGit } from "../../workspace/repo_git.ts";
import type { ReviewTarget } from "../../review/target.ts";

/** What the picker talks through. */
export interface ReviewPickerIO {
  git: RepoGit;
  print(lines: string[]): void;
  /** One answer line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  style: Style;
}

const SHOWN = 15;

const CHOICES = [
  "against a base branch (the changes since the merge base)",
  "uncommitted changes (staged, unstaged and untracked files)",
  "a commit",
  "custom instructions",
];

/** Asks what to review; undefined when the user cancels (Enter, end of input). */
export async function pickReviewTarget(io: ReviewPickerIO): Promise<ReviewTarget | undefined> {
  io.print(["Review what?", ...CHOICES.map((c, i) => `${String(i + 1).padStart(2)}  ${c}`)]);
  switch (await choose(io, CHOICES.length, "Number (Enter to cancel) › ")) {
    case 1:
      return await pickBranch(io);
    case 2:
      return { kind: "uncommitted" };
    case 3:
      return await pickCommit(io);
    case 4: {
      const text = (await io.ask("Review instructions (Enter to cancel) › "))?.trim();
      return text ? { kind: "custom", instructions: text } : undefined;
    }
  }
  return undefined;
}

async function pickBranch(io: ReviewPickerIO): Promise<ReviewTarget | undefined> {
  const current = (await io.git(["rev-parse", "--abbrev-ref", "HEAD"])).stdout.trim();
  const listed = await io.git([
    "for-each-ref",
    "--sort=-committerdate",
    `--count=${SHOWN + 1}`,
    "--format=%(refname:short)",
    "refs/heads",
  ]);
  const branches = lines(listed.stdout).filter((b) => b !== current).slice(0, SHOWN);
  const picked = await pickOrType(io, branches, "Base branch: number or name");
  return picked ? { kind: "base", branch: picked.value } : undefined;
}

async function pickCommit(io: ReviewPickerIO): Promise<ReviewTarget | undefined> {
  const log = await io.git(["log", `-n${SHOWN}`, "--format=%h%x09%s"]);
  const commits = lines(log.stdout).map((line) => {
    const [sha, ...subject] = line.split("\t");
    return { sha, subject: subject.join("\t") };
  });
  const picked = await pickOrType(
    io,
    commits.map((c) => `${c.sha}  ${c.subject}`),
    "Commit: number or SHA",
  );
  if (!picked) return undefined;
  const commit = picked.index === undefined ? undefined : commits[picked.index];
  return commit
    ? { kind: "commit", sha: commit.sha, title: commit.subject || undefined }
    : { kind: "commit", sha: picked.value };
}

/**
 * Lists `items` numbered (branch names and commit subjects are the repository's: their control
 * characters are made visible) and reads a number (that item) or a name typed in full.
 */
async function pickOrType(
  io: ReviewPickerIO,
  items: string[],
  question: string,
): Promise<{ value: string; index?: number } | undefined> {
  if (items.length) {
    io.print(items.map((item, i) => `${String(i + 1).padStart(2)}  ${terminalText(item)}`));
  }
  const answer = (await io.ask(`${question} (Enter to cancel) › `))?.trim() ?? "";
  if (!answer) return undefined;
  const index = Number(answer);
  if (Number.isInteger(index) && index >= 1 && index <= items.length) {
    return { value: items[index - 1].split("  ")[0], index: index - 1 };
  }
  return { value: answer };
}

async function choose(io: ReviewPickerIO, count: number, prompt: string): Promise<number> {
  const answer = (await io.ask(prompt))?.trim() ?? "";
  const n = Number(answer);
  if (!answer || !Number.isInteger(n) || n < 1 || n > count) {
    if (answer) io.print([io.style.dim(`No choice ${answer}; nothing reviewed`)]);
    return 0;
  }
  return n;
}

function lines(text: string): string[] {
  return text.split("\n").map((l) => l.trim()).filter(Boolean);
}
