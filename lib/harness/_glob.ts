/**
 * `[match]` patterns: `*` stands for any run of characters, everything else is literal, and
 * matching ignores case. Other glob syntax is refused so that a pattern never means less than
 * it seems to.
 */
import { nameGlobRegExp } from "../tools/glob_match.ts";

const UNSUPPORTED = /[?[\]{}!]/;

/** Why `pattern` is not a usable glob, or undefined when it is. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.trim() === "") return "empty pattern";
  const bad = pattern.match(UNSUPPORTED);
  if (bad) return `"${pattern}": "${bad[0]}" is not supported, only "*" (any characters) is`;
  return undefined;
}

/** The pattern as an anchored, case-insensitive regular expression (a name glob). */
export function globRegExp(pattern: string): RegExp {
  return nameGlobRegExp(pattern);
}
