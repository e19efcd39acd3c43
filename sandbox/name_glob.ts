/**
 * The one compiler of name globs (model ids, provider names, base URLs, environment variable
 * names): case-insensitive, matched against the whole text, by picomatch. It lives in sandbox/,
 * the lowest layer, so the environment policy and lib/ share it.
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/** `bash` makes `*` span `/`; braces, extglobs and a leading `!` are not glob syntax here. */
const NAME_GLOB = {
  dot: true,
  posix: true,
  windows: false,
  nocase: true,
  bash: true,
  noextglob: true,
  nobrace: true,
  nonegate: true,
} as const;

/**
 * A case-insensitive regular expression for a name glob matched against a whole text: `*`
 * stands for any run of characters (`/` included), `?` for one character but `/`, `[a-z]` and
 * `[!x]` for a class; every other character is literal. The empty text never matches.
 */
export function nameGlobRegExp(pattern: string): RegExp {
  return picomatch.makeRe(pattern.replace(/[()|+@{}\\]/g, "\\$&"), NAME_GLOB);
}
