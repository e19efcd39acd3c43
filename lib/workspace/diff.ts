/**
 * `/diff`: the working tree against HEAD, untracked files included, through the safe git runner.
 * Bounded for big change sets: each untracked file costs one sandboxed git run, so only the first
 * MAX_UNTRACKED_SHOWN are diffed (a few at a time) and the rest named, and the text stops near
 * MAX_DIFF_CHARS at a file's boundary, with a line saying what was left out and how to see it.
 */
import { join } from "node:path";
import type { GitRunner } from "./safe_git.ts";
import { findGitRoot } from "./git_root.ts";

/** Untracked files shown as added; past them, names only. */
export const MAX_UNTRACKED_SHOWN = 50;
/** Characters of diff shown at most (a 5,000-file diff is not read on a terminal). */
export const MAX_DIFF_CHARS = 1_000_000;
/** Untracked files listed by name past the ones shown. */
const MAX_NAMES_LISTED = 20;
/** Sandboxed git runs at a time for untracked files. */
const PARALLEL_RUNS = 4;

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
  const files = untracked.stdout.split("\0").filter(Boolean);
  const shown = files.slice(0, MAX_UNTRACKED_SHOWN);
  const added = await mapLimited(
    shown,
    PARALLEL_RUNS,
    async (file) =>
      (await git.run(["diff", "--no-index", "--no-color", "--", "/dev/null", file], root)).stdout,
  );
  const text = capped([tracked.ok ? tracked.stdout : "", ...added].join(""));
  return text + untrackedNote(files.slice(shown.length));
}

/** `fn` of each item, at most `limit` running at once, in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `diff` cut before the first file that starts past MAX_DIFF_CHARS, with a line saying so. */
function capped(diff: string): string {
  if (diff.length <= MAX_DIFF_CHARS) return diff;
  const cut = diff.lastIndexOf("\ndiff --git ", MAX_DIFF_CHARS);
  const kept = cut > 0 ? diff.slice(0, cut + 1) : diff.slice(0, MAX_DIFF_CHARS) + "\n";
  const left = diff.slice(kept.length);
  const files = (left.match(/^diff --git /gm) ?? []).length;
  return kept +
    `… ${left.length.toLocaleString("en-US")} more characters of diff (${files} more files) ` +
    "not shown: run git diff HEAD to read all of it\n";
}

/** The line naming untracked files not diffed; "" when there are none. */
function untrackedNote(files: string[]): string {
  if (files.length === 0) return "";
  const names = files.slice(0, MAX_NAMES_LISTED).join(", ");
  const more = files.length > MAX_NAMES_LISTED
    ? `, and ${files.length - MAX_NAMES_LISTED} more`
    : "";
  return `… ${files.length} more untracked files not shown as added: ${names}${more}\n`;
}
