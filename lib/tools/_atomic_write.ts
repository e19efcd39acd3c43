import { dirname } from "node:path";
import type { FileSystem } from "../../sandbox/file_system.ts";

/**
 * Writes `text` to `path` through `opts.fs` (the session's file system, `fsOf(ctx)`) with a
 * temporary file in the same directory and a rename, so readers never see a half-written file.
 * Keeps the mode of an existing file (or of `opts.modeFrom`, for a moved file); creates parent
 * directories for a new one. An existing symlink is written through and stays a symlink.
 */
export async function atomicWrite(
  path: string,
  text: string,
  opts: { fs: FileSystem; modeFrom?: string },
): Promise<void> {
  const fs = opts.fs;
  const mode = await modeOf(fs, opts.modeFrom ?? path) ?? await modeOf(fs, path);
  if (mode === undefined) await fs.mkdirp(dirname(path));
  await fs.writeFileAtomic(path, new TextEncoder().encode(text), { mode });
}

async function modeOf(fs: FileSystem, path: string): Promise<number | undefined> {
  try {
    const mode = (await fs.stat(path)).mode;
    return mode === null ? undefined : mode & 0o7777;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}
