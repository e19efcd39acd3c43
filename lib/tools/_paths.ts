import { isAbsolute, normalize, relative, resolve } from "node:path";

/** Resolves `path` against `cwd`; absolute paths are kept, both are normalized. */
export function resolvePath(cwd: string, path: string): string {
  return isAbsolute(path) ? normalize(path) : resolve(cwd, path);
}

/** `abs` relative to `cwd` when it lies inside `cwd`, otherwise `abs` unchanged. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return abs;
  return rel;
}
