// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * `/diff` (and the uncommitted review, which sends the same diff, cut) on 5,000 changed files:
 * a generated repository of 5,000 tracked files with 2,500 of them edited and 2,500 untracked
 * files beside them, against a 10-file one with 5 edited and 5 untracked, each through the
 * session's sandboxed git runner, interleaved (median of 5). Target: the big change set at most
 * 10x the small one (the work is bounded: untracked files past the first 50 are named, not
 * diffed, and the text stops near 1 MB), and the text at most 1.1 MB. Quick mode
 * (BENCH_QUICK=1 or --quick): 3 rounds.
 *
 *   deno run -A scripts/bench/diff_review.ts [--quick]
 */
import { join } from "node:path";
import { workingTreeDiff } from "../../lib/workspace/diff.ts";
import { openGitRunner } from "../../lib/workspace/safe_git.ts";
import { bigRepo } from "./_scale_repo.ts";
import { benchLine, isQuick, median, ms, sample } from "./_measure.ts";

const RUNS = isQuick() ? 3 : 5;
const TARGET_RATIO = 10;
const MAX_TEXT_MB = 1.1;

/** A repository of `files` tracked files with `changed` edited and `changed` untracked. */
async function changedRepo(dir: string, files: number, changed: number): Promise<void> {
  const paths = await bigRepo(dir, { files, historyCommits: 3, historyBlobBytes: 1000 });
  // bigRepo leaves a few changes of its own; these are the bulk.
  for (const path of paths.slice(0, changed)) {
    await Deno.writeTextFile(join(dir, path), `export const changed = "${path}";\n`);
  }
  await Deno.mkdir(join(dir, "added"), { recursive: true });
  for (let i = 0; i < changed; i++) {
    await Deno.writeTextFile(join(dir, "added", `a${i}.ts`), `export const added = ${i};\n`);
  }
}

async function main(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "bench_diff_" });
  try {
    const small = join(root, "small");
    const big = join(root, "big");
    await changedRepo(small, 10, 5);
    await changedRepo(big, 5_000, 2_500);
    await using git = await openGitRunner({ env: Deno.env.toObject() });
    const sizes: Record<string, number> = {};
    const timed = (dir: string) => async () => {
      const start = performance.now();
      sizes[dir] = (await workingTreeDiff(git, dir, () => false)).length;
      return performance.now() - start;
    };
    const [smallMs, bigMs] = (await sample(RUNS, [timed(small), timed(big)])).map(median);
    console.log(`/diff, 10 changed files      ${ms(smallMs)}   ${sizes[small]} characters`);
    console.log(`/diff, 5,000 changed files   ${ms(bigMs)}   ${sizes[big]} characters`);
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    console.log(benchLine("/diff 5,000 changed files / 10 files", bigMs / smallMs, TARGET_RATIO));
    console.log(benchLine("/diff 5,000 changed files text", sizes[big] / 1e6, MAX_TEXT_MB, "MB"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
