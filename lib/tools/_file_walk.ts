import { join } from "node:path";
import type { Ignore } from "ignore";
import type { DirEntry, FileSystem } from "../../sandbox/file_system.ts";

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
export async function* walkFiles(
  root: string,
  opts: { glob?: string; signal: AbortSignal; fs: FileSystem },
): AsyncGenerator<string> {
  const fs = opts.fs;
  const match = opts.glob === undefined ? undefined : globMatcher(opts.glob);
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
      else if (entry.isFile && (!match || match(path))) yield path;
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
export async function listFiles(
  root: string,
  opts: { glob?: string; signal: AbortSignal; fs: FileSystem },
): Promise<string[]> {
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

/**
 * A matcher for a ripgrep `--glob` (gitignore syntax, plus `{a,b}` alternatives) against a
 * root-relative file path: without a `/` it matches the file name anywhere, with one it matches
 * the whole path; `*` and `?` stay within one path segment, `**` spans segments.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  const regexes = expandBraces(body).map((g) => {
    const anchored = g.replace(/\/$/, "").includes("/");
    const source = globToRegExpSource(g.replace(/^\//, ""));
    return new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  });
  return (path) => regexes.some((r) => r.test(path)) !== negated;
}

function globToRegExpSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith("**/", i)) {
      out += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("/**", i) && i + 3 === glob.length) {
      out += "/.*";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      out += ".*";
      i += 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[" && glob.indexOf("]", i + 2) !== -1) {
      const end = glob.indexOf("]", i + 2);
      const inner = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
      out += `[${inner}]`;
      i = end;
    } else if (c === "\\" && i + 1 < glob.length) out += escapeRe(glob[++i]);
    else out += escapeRe(c);
  }
  return out;
}

/** `a{b,c}d` → `abd`, `acd`; nested and repeated groups expand too. */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open === -1) return [glob];
  let depth = 0;
  const cuts: number[] = [];
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === "{") depth++;
    else if (glob[i] === "}" && --depth === 0) {
      const parts: string[] = [];
      let from = open + 1;
      for (const cut of cuts) {
        parts.push(glob.slice(from, cut));
        from = cut + 1;
      }
      parts.push(glob.slice(from, i));
      const rest = expandBraces(glob.slice(i + 1));
      const head = glob.slice(0, open);
      return parts.flatMap((p) => expandBraces(p).flatMap((e) => rest.map((r) => head + e + r)));
    } else if (glob[i] === "," && depth === 1) cuts.push(i);
  }
  return [glob];
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
