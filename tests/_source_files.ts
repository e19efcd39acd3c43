/** The TypeScript files the size tests read: below `dir` of `root`, in name order. */
import { join } from "node:path";

/**
 * Yields each `.ts` file below `dir` (relative to `root`, as `dir/…`), folders in name order,
 * leaving out paths for which `skip` says so (a skipped folder is not entered); a missing `dir`
 * yields nothing.
 */
export async function* sourceFiles(
  root: string,
  dir: string,
  skip: (path: string) => boolean,
): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(join(root, dir)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${dir}/${entry.name}`;
    if (skip(path)) continue;
    if (entry.isDirectory) yield* sourceFiles(root, path, skip);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}
