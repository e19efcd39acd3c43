import { join } from "node:path";
import type { Ignore } from "ignore";
import type { DirEntry, FileSystem } from "../../sandbox/file_system.ts";
import { fileGlobMatcher } from "./glob_match.ts";
import type { ToolProgress } from "./types.ts";

/** Files between two progress reports of a long walk or search. */
const FILES_PER_PROGRESS = 2000;

/** What `walkFiles` and `listFiles` take. */
export interface WalkOptions {
  /** Only files whose path matches this glob. */
  glob?: string;
  signal: AbortSignal;
  fs: FileSystem;
  /** Called for every file the walk looks at, before the glob filters it. */
  onFile?: () => void;
}

/**
 * A counter that reports `text(n)` as a status line each FILES_PER_PROGRESS files; the loop's
 * throttle decides how often the front end sees one, so calling it per file is cheap.
 */
export function fileCounter(
  progress: (chunk: ToolProgress) => void,
  text: (files: number) => string,
): () => void {
  let files = 0;
  return () => {
    if (++files % FILES_PER_PROGRESS === 0) {
      progress({ stream: "status", text: `${text(files)}\n` });
    }
  };
}

interface IgnoreLevel {
  /** Path of the `.gitignore`'s folder relative to the root, "" or ending in "/". */
  base: string;
  ig: Ignore;
}

/**
 * Files under `root` (relative, `/`-separated), filtered as RG_FILTER_FLAGS describes, listed
 * and read through `opts.fs` (the session's file system), in path order (as `Array.sort` orders
 * the paths), one folder at a time: a caller that stops early has read only what it used.
 */
export async function* walkFiles(root: string, opts: WalkOptions): AsyncGenerator<string> {
  const fs = opts.fs;
  const match = opts.glob === undefined ? undefined : fileGlobMatcher(opts.glob);
  async function* visit(rel: string, levels: IgnoreLevel[]): AsyncGenerator<string> {
    opts.signal.throwIfAborted();
    const dir = join(root, rel);
    const here = await loadGitignore(fs, dir, rel);
    const stack = here ? [...levels, here] : levels;
    for (const entry of sortForPaths(await fs.readDir(dir))) {
      if (entry.name.startsWith(".") || entry.isSymlink) continue;
      const path = rel + entry.name;
      if (isIgnored(stack, entry.isDirectory ? `${path}/` : path)) continue;
      if (entry.isDirectory) yield* visit(`${path}/`, stack);
      else if (entry.isFile) {
        opts.onFile?.();
        if (!match || match(path)) yield path;
      }
    }
  }
  yield* visit("", []);
}

/**
 * A folder's entries in the order their paths sort: a folder sorts as its name plus `/`, so
 * `a.txt` comes before `a/b` (`.` is below `/`), as in a sort of the full paths.
 */
function sortForPaths(entries: DirEntry[]): DirEntry[] {
  const key = (e: DirEntry) => e.isDirectory ? `${e.name}/` : e.name;
  return entries.map((e) => ({ e, k: key(e) }))
    .sort((a, b) => a.k < b.k ? -1 : a.k > b.k ? 1 : 0)
    .map((x) => x.e);
}

/** All of `walkFiles`, as a list. */
export async function listFiles(root: string, opts: WalkOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const path of walkFiles(root, opts)) out.push(path);
  return out;
}

async function loadGitignore(
  fs: FileSystem,
  dir: string,
  base: string,
): Promise<IgnoreLevel | undefined> {
  let text: string;
  try {
    text = new TextDecoder().decode(await fs.readFile(join(dir, ".gitignore")));
  } catch {
    return undefined;
  }
  const { default: ignore } = await import("ignore"); // loaded on first use, not at start-up
  return { base, ig: ignore().add(text) };
}

/** The deepest `.gitignore` with a rule for the path decides, as in git. */
function isIgnored(stack: IgnoreLevel[], path: string): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const r = stack[i].ig.test(path.slice(stack[i].base.length));
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}
