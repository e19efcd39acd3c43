/**
 * Checks on the files a repository offers as instructions (AGENTS.md, CLAUDE.md, SKILL.md): read
 * only a regular file, and a project's only where it lies inside the project, links resolved.
 */
import { isAbsolute, relative, sep } from "node:path";
import { fileKind } from "../tools/skills.ts";

/** Whether `path` is `dir` or lies below it (both real paths). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A project root for these checks: as given, and as its real path. */
export interface RealRoot {
  root: string;
  real: string;
}

/** `root` with its real path (itself when that cannot be resolved). */
export async function realRoot(root: string): Promise<RealRoot> {
  return { root, real: await Deno.realPath(root).catch(() => root) };
}

/** What `checkInstructionFile()` found. */
export type InstructionCheck =
  | { kind: "missing" }
  /** It may be read, by `real` (its real path). */
  | { kind: "ok"; real: string }
  | { kind: "refused"; problem: string };

/**
 * Whether the instruction file at `path` may be read: missing (a dangling link included), or
 * refused when it is not a regular file, or when `inside` is given and it resolves outside that
 * project (through a link to the file or to a folder on the way).
 */
export async function checkInstructionFile(
  path: string,
  inside?: RealRoot,
): Promise<InstructionCheck> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info) return { kind: "missing" };
  if (!info.isFile) {
    return { kind: "refused", problem: `it is ${fileKind(info)}, not a regular file` };
  }
  const real = await Deno.realPath(path).catch(() => undefined);
  if (real !== undefined && (!inside || isWithin(real, inside.real))) return { kind: "ok", real };
  return {
    kind: "refused",
    problem: `it leads through a link to ${real ?? "a path that cannot be resolved"}, outside ` +
      `the project ${inside?.root}`,
  };
}
