/**
 * `git status` at start-up, bounded: it stats every tracked file, so in a work tree of 100,000
 * files it alone takes longer than the rest of the start-up. Past a fixed count of tracked
 * files (read from the index's header, 12 bytes) the prompt says how many there are and that
 * the model can run `git status` itself, so the first request costs the same in any repository.
 */
import { join } from "node:path";
import type { GitResult, GitRunner } from "./safe_git.ts";

/** Tracked files past which the start-up prompt leaves `git status` out. */
export const STATUS_MAX_TRACKED = 20_000;

/**
 * Entries in the index of the repository at `root` (its `.git/index` header), or undefined when
 * `.git` is not a folder with a regular index file (a worktree's `.git` file, a fresh repository,
 * a link: then status runs as usual, inside the git runner's sandbox).
 */
export async function indexEntries(root: string): Promise<number | undefined> {
  const path = join(root, ".git", "index");
  try {
    const [dotGit, index] = [await Deno.lstat(join(root, ".git")), await Deno.lstat(path)];
    if (!dotGit.isDirectory || !index.isFile || index.size < 12) return undefined;
    using file = await Deno.open(path, { read: true });
    const header = new Uint8Array(12);
    let got = 0;
    while (got < 12) {
      const n = await file.read(header.subarray(got));
      if (n === null) return undefined;
      got += n;
    }
    if (new TextDecoder().decode(header.subarray(0, 4)) !== "DIRC") return undefined;
    return new DataView(header.buffer).getUint32(8);
  } catch {
    return undefined;
  }
}

/**
 * `git <args>` (a status) through `git` in `cwd`, unless the repository at `root` tracks more
 * than STATUS_MAX_TRACKED files: then a result `skipped` with the count and what to do.
 */
export async function startupStatus(
  git: GitRunner,
  root: string,
  cwd: string,
  args: string[],
): Promise<GitResult> {
  const entries = await indexEntries(root);
  if (entries !== undefined && entries > STATUS_MAX_TRACKED) {
    const count = entries.toLocaleString("en-US");
    return {
      ok: false,
      stdout: "",
      skipped: `${count} tracked files make it slow at start-up; run git status when you need it`,
    };
  }
  return await git.run(args, cwd);
}
