import { dirname } from "node:path";
import { tempSibling } from "./_paths.ts";

/**
 * Writes `text` to `path` through a temporary file in the same directory and a rename, so
 * readers never see a half-written file. Keeps the mode of an existing file (or of
 * `opts.modeFrom`, for a moved file); creates parent directories for a new one.
 */
export async function atomicWrite(
  path: string,
  text: string,
  opts: { modeFrom?: string } = {},
): Promise<void> {
  const mode = await modeOf(opts.modeFrom ?? path) ?? await modeOf(path);
  if (mode === undefined) await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = tempSibling(path);
  try {
    await Deno.writeTextFile(tmp, text, { createNew: true });
    if (mode !== undefined) await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

async function modeOf(path: string): Promise<number | undefined> {
  try {
    const mode = (await Deno.stat(path)).mode;
    return mode === null ? undefined : mode & 0o7777;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}
