/**
 * A journal of in-flight atomic writes. An atomic write puts a temporary file next to its target
 * and renames it; a process killed in between leaves that file in the user's tree. Before each
 * write the journal records where its temporary file will be, one small file per write in the
 * session's scratch folder, and drops the record once the write is done; whatever is still
 * recorded when the session ends, or when a later session finds it dead, is removed then.
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import { type FileSystem, isTempFileName, tempFileName } from "./file_system.ts";

/** The journal's folder inside a session's scratch folder. */
export const WRITES_FOLDER = "writes";

/**
 * `fs` with every `writeFileAtomic` journaled in the folder `journalDir()` returns (made on the
 * first write). The other operations pass through unchanged.
 */
export function journaledFileSystem(
  fs: FileSystem,
  journalDir: () => Promise<string>,
): FileSystem {
  return {
    readFile: (path, range) => fs.readFile(path, range),
    stat: (path) => fs.stat(path),
    lstat: (path) => fs.lstat(path),
    readDir: (path) => fs.readDir(path),
    mtimes: (paths) => fs.mtimes(paths),
    async writeFileAtomic(path, data, opts = {}) {
      const target = opts.noFollow ? path : await fs.realPath(path).catch((err) => {
        if (err instanceof Deno.errors.NotFound) return path;
        throw err;
      });
      const tempName = tempFileName(target);
      const temp = join(opts.tempDir ?? dirname(target), tempName);
      const record = join(await journalDir(), crypto.randomUUID());
      await Deno.writeTextFile(record, temp, { createNew: true, mode: 0o600 });
      try {
        await fs.writeFileAtomic(path, data, { ...opts, tempName });
      } catch (err) {
        // A writer that failed normally removed its file; one that was killed did not.
        await removeTemp(temp).catch(() => {});
        throw err;
      } finally {
        await Deno.remove(record).catch(() => {});
      }
    },
    mkdirp: (path) => fs.mkdirp(path),
    remove: (path) => fs.remove(path),
    rename: (from, to) => fs.rename(from, to),
    realPath: (path) => fs.realPath(path),
  };
}

/**
 * Removes the temporary files recorded in the journal folder `dir` (a missing folder is an
 * empty journal) and returns their paths. Only files named like `tempFileName()` makes them are
 * removed, never a symlink or a folder, so a record cannot be made to delete anything else.
 */
export async function removeJournaledTemps(dir: string): Promise<string[]> {
  let records: Deno.DirEntry[];
  try {
    records = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const removed: string[] = [];
  for (const record of records) {
    const temp = await Deno.readTextFile(join(dir, record.name)).catch(() => "");
    if (isAbsolute(temp) && await removeTemp(temp).catch(() => false)) removed.push(temp);
    await Deno.remove(join(dir, record.name)).catch(() => {});
  }
  return removed;
}

async function removeTemp(path: string): Promise<boolean> {
  if (!isTempFileName(basename(path))) return false;
  try {
    if (!(await Deno.lstat(path)).isFile) return false;
    await Deno.remove(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
