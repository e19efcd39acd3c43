/**
 * Which paths a checkpoint may name: the session file may be forged, so a path must be a plain
 * relative path that stays in the workspace and names none of the names the sandbox protects.
 * (Apart from `_restore_files.ts`, which loads only when a restore runs.)
 */
import { isAbsolute, normalize } from "node:path";
import { DEFAULT_PROTECTED_NAMES } from "../../../sandbox/bwrap_args.ts";

/** Why `path` is not a workspace-relative path a checkpoint may name; undefined when it is. */
export function badPath(path: string): string | undefined {
  if (path === "" || isAbsolute(path) || path.includes("\\") || path.includes("\0")) {
    return "it is not a relative path";
  }
  const parts = path.split("/");
  if (normalize(path) !== path || parts.some((p) => p === ".." || p === "." || p === "")) {
    return "it is not a normalized path inside the workspace";
  }
  const named = parts.find((p) => DEFAULT_PROTECTED_NAMES.includes(p));
  if (named) {
    return `it is inside a ${named} folder, which a restore never writes ` +
      `(${DEFAULT_PROTECTED_NAMES.join(", ")} stay as they are)`;
  }
  return undefined;
}
