import { join } from "node:path";
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { fileCounter, listFiles } from "./_file_walk.ts";
import { rgFiles, type SearchEngine, searchEngine } from "./_rg.ts";
import { fsOf } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { displayPath, resolvePath } from "./_paths.ts";

/** Most files a glob returns; `truncated` says when more matched. */
const MAX_GLOB_RESULTS = 1000;

/** Input of `fs.glob`. */
const fsGlobInput = z.object({
  pattern: z.string().min(1).describe("Glob such as `**/*.ts` or `src/*.{js,jsx}`"),
  path: z.string().optional().describe("Folder to search, absolute or relative to the workspace"),
});

/** Result of `fs.glob`. */
export interface FsGlobOutput {
  /** The searched folder, relative to the workspace when inside it. */
  root: string;
  /** Matching files relative to `root`, most recently modified first, then by name. */
  files: string[];
  truncated: boolean;
}

/**
 * Finds files by glob (ripgrep `--glob` syntax) under a folder. Hidden files and anything a
 * `.gitignore` at or below the folder excludes are skipped; see RG_FILTER_FLAGS.
 */
export const fsGlob = defineCapability({
  id: "fs.glob",
  input: fsGlobInput,
  mutates: false,
  async run(input, ctx): Promise<FsGlobOutput> {
    return globFiles(input, ctx, await searchEngine(ctx));
  },
});

/** `fs.glob` with a chosen engine; both engines give the same result. */
export async function globFiles(
  input: z.infer<typeof fsGlobInput>,
  ctx: ToolContext,
  engine: SearchEngine,
): Promise<FsGlobOutput> {
  const root = await searchRoot(ctx, input.path, "glob");
  const fs = fsOf(ctx);
  const opts = { glob: input.pattern, env: ctx.env, signal: ctx.signal, fs };
  const found = engine === "rg" ? await rgFiles(root, opts, ctx) : await listFiles(root, {
    ...opts,
    onFile: fileCounter(ctx.progress, (n) => `looked at ${n} files`),
  });
  const dated = fileCounter(ctx.progress, (n) => `sorting by time: ${n} of ${found.length} files`);
  return {
    root: displayPath(ctx.cwd, root),
    files: await newestFirst(fs, root, found, { signal: ctx.signal, onFile: dated }),
    truncated: found.length > MAX_GLOB_RESULTS,
  };
}

/** The absolute folder to search; ToolError when it is missing or not a folder. */
export async function searchRoot(
  ctx: ToolContext,
  path: string | undefined,
  verb: string,
): Promise<string> {
  const root = resolvePath(ctx.cwd, path ?? ".");
  let isDir = false;
  try {
    isDir = (await fsOf(ctx).stat(root)).isDirectory;
  } catch {
    throw new ToolError(`Cannot ${verb} in "${path}": folder does not exist`, "Check the path");
  }
  if (!isDir) {
    throw new ToolError(`Cannot ${verb} in "${path}": it is not a folder`, "Give a folder path");
  }
  return root;
}

/** Files whose times one `mtimes` call asks for: one helper round trip each. */
const MTIME_BATCH = 5000;

/**
 * The MAX_GLOB_RESULTS newest of `files`, then by name. Times come MTIME_BATCH files to a round
 * trip, and only twice the kept number of entries is held, however many files matched.
 */
async function newestFirst(
  fs: FileSystem,
  root: string,
  files: string[],
  opts: { signal: AbortSignal; onFile: () => void },
): Promise<string[]> {
  type Timed = { f: string; t: number };
  const order = (a: Timed, b: Timed) => b.t - a.t || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0);
  let kept: Timed[] = [];
  for (let i = 0; i < files.length; i += MTIME_BATCH) {
    opts.signal.throwIfAborted();
    const batch = files.slice(i, i + MTIME_BATCH);
    const times = await fs.mtimes(batch.map((f) => join(root, f)));
    batch.forEach((f, j) => {
      opts.onFile();
      kept.push({ f, t: times[j] ?? 0 });
    });
    if (kept.length >= 2 * MAX_GLOB_RESULTS) kept = kept.sort(order).slice(0, MAX_GLOB_RESULTS);
  }
  return kept.sort(order).slice(0, MAX_GLOB_RESULTS).map((x) => x.f);
}
