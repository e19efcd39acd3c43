/**
 * Every glob of lib/ is compiled here, by picomatch, in one of two flavours: file globs
 * (ripgrep `--glob`) for the file tools, and name globs (`*` spans anything) for model ids,
 * provider names and base URLs (compiled in `sandbox/name_glob.ts`, which the environment policy
 * shares).
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

export { nameGlobRegExp } from "../../sandbox/name_glob.ts";

/** Dotfiles match, `[!x]` negates a class, and `/` is the only separator on every OS. */
const COMMON = { dot: true, posix: true, windows: false } as const;

/**
 * A matcher for a file glob in ripgrep `--glob` syntax (gitignore rules, plus `{a,b}`) against a
 * root-relative, `/`-separated path: without a `/` the glob matches the last path segment
 * anywhere; with one, or a leading `/`, it matches the whole path. `*` and `?` stay within a
 * segment, `**` spans segments, a leading `!` negates, and a trailing `/` matches only folders,
 * which callers pass with a trailing `/`.
 */
export function fileGlobMatcher(glob: string): (path: string) => boolean {
  const negated = glob.startsWith("!");
  let body = negated ? glob.slice(1) : glob;
  const foldersOnly = body.endsWith("/");
  if (foldersOnly) body = body.slice(0, -1);
  const anchored = body.includes("/");
  body = body.replace(/^\//, "");
  const match = picomatch(anchored ? body : `**/${body}`, COMMON);
  return (path) => {
    const isFolder = path.endsWith("/");
    const hit = (!foldersOnly || isFolder) && match(isFolder ? path.slice(0, -1) : path);
    return hit !== negated;
  };
}
