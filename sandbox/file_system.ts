/**
 * The seam between the file tools and the disk (reference/sandbox.md §0 item 2): the same small
 * set of operations runs in this process (`inProcessFs`) or in the sandboxed helper process
 * (`fs_helper_client.ts`), which serves them by calling `inProcessFs` under narrower permissions.
 */
import { basename, dirname, join } from "node:path";

/** The part of `Deno.FileInfo` the file tools use; symlinks are followed except by `lstat`. */
export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  /** Permission bits and file type as `Deno.FileInfo.mode`; null where the platform has none. */
  mode: number | null;
  /** The device; unset where unknown. */
  dev?: number | null;
}

/** One entry of a folder listing. */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** A byte window of a file for `FileSystem.readFile`. */
export interface ReadRange {
  offset: number;
  length: number;
}

/**
 * The file operations the file tools need. Paths are absolute.
 *
 * Contract: failures reject with Deno's own error classes (`Deno.errors.NotFound`,
 * `IsADirectory`, ...) whichever process ran the operation, so callers check them with
 * `instanceof` as usual; a write the sandbox refuses rejects with `FsRefusedError`.
 */
export interface FileSystem {
  /** The whole file, or the bytes of `range` (fewer only at the end of the file). */
  readFile(path: string, range?: ReadRange): Promise<Uint8Array>;
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * The modification times (ms) of many files in one operation, null where a path cannot be
   * stat-ed or has none: one round trip to the helper instead of one per file.
   */
  mtimes(paths: string[]): Promise<(number | null)[]>;
  /**
   * Replaces the file's contents through a temporary file in the same folder (or `tempDir`) and a
   * rename, so readers never see half a file. An existing symlink is followed and stays a symlink
   * (unless `noFollow`); the parent folder must exist. `mode` sets the permission bits of the new
   * file; `tempName` names the temporary file (as `tempFileName()` makes it), so a caller can
   * record where it will be.
   */
  writeFileAtomic(path: string, data: Uint8Array, opts?: WriteOptions): Promise<void>;
  /** Creates the folder and any missing parents; an existing folder is fine. */
  mkdirp(path: string): Promise<void>;
  /** Removes a file or an empty folder. */
  remove(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  realPath(path: string): Promise<string>;
}

/** What a restore of checkpointed files needs besides the file tools' operations. */
export interface RestoringFileSystem extends FileSystem {
  /** Makes a symlink at `path` (which must not exist) whose target is `target`, as given. */
  symlink(target: string, path: string): Promise<void>;
}

/** Options of `FileSystem.writeFileAtomic`. */
export interface WriteOptions {
  mode?: number;
  tempName?: string;
  /** Replace a symlink at the path itself instead of writing where it points. */
  noFollow?: boolean;
  /**
   * The folder of the temporary file, on the same file system as the path (a folder that cannot
   * be swapped for a link meanwhile, say); by default the path's own folder.
   */
  tempDir?: string;
}

/**
 * A `FileSystem` whose every operation goes to the one `current()` answers at the time of the
 * call (a backend started on first use, or the helper of the sandbox mode in use).
 */
export function forwardingFileSystem(
  current: () => FileSystem | Promise<FileSystem>,
): FileSystem {
  const forward = <K extends keyof FileSystem>(name: K) =>
    (async (...args: unknown[]) => {
      const fs = await current();
      return await (fs[name] as (...a: unknown[]) => unknown)(...args);
    }) as FileSystem[K];
  return {
    readFile: forward("readFile"),
    stat: forward("stat"),
    lstat: forward("lstat"),
    readDir: forward("readDir"),
    mtimes: forward("mtimes"),
    writeFileAtomic: forward("writeFileAtomic"),
    mkdirp: forward("mkdirp"),
    remove: forward("remove"),
    rename: forward("rename"),
    realPath: forward("realPath"),
  };
}

/** The name of the temporary file an atomic write of `target` uses: `.<name>.<8 hex>.tmp`. */
export function tempFileName(target: string): string {
  return `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
}

/** Whether `name` is a name `tempFileName()` makes. */
export function isTempFileName(name: string): boolean {
  return /^\.[^/\\]+\.[0-9a-f]{8}\.tmp$/.test(name);
}

/** A write the sandbox refused; `message` says why and `hint` what to do instead. */
export class FsRefusedError extends Error {
  readonly path: string;
  readonly hint: string;
  constructor(message: string, opts: { path: string; hint: string; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.name = "FsRefusedError";
    this.path = opts.path;
    this.hint = opts.hint;
  }
}

/** The operations run directly with Deno's APIs under this process's own permissions. */
export const inProcessFs: RestoringFileSystem = Object.freeze({
  readFile,
  stat: async (path: string) => toStat(await Deno.stat(path)),
  lstat: async (path: string) => toStat(await Deno.lstat(path)),
  async readDir(path: string): Promise<DirEntry[]> {
    const entries: DirEntry[] = [];
    for await (const e of Deno.readDir(path)) {
      entries.push({
        name: e.name,
        isFile: e.isFile,
        isDirectory: e.isDirectory,
        isSymlink: e.isSymlink,
      });
    }
    return entries;
  },
  mtimes,
  writeFileAtomic,
  mkdirp: (path: string) => Deno.mkdir(path, { recursive: true }),
  remove: (path: string) => Deno.remove(path),
  rename: (from: string, to: string) => Deno.rename(from, to),
  realPath: (path: string) => Deno.realPath(path),
  symlink: (target: string, path: string) => Deno.symlink(target, path),
});

/** Paths stat-ed between two yields to the event loop, which a long list would block. */
const MTIMES_PER_TURN = 2000;

async function mtimes(paths: string[]): Promise<(number | null)[]> {
  const out: (number | null)[] = [];
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % MTIMES_PER_TURN === 0) await new Promise((r) => setTimeout(r, 0));
    try {
      out.push(Deno.statSync(paths[i]).mtime?.getTime() ?? null);
    } catch {
      out.push(null);
    }
  }
  return out;
}

function toStat(info: Deno.FileInfo): FileStat {
  return {
    isFile: info.isFile,
    isDirectory: info.isDirectory,
    isSymlink: info.isSymlink,
    size: info.size,
    mtime: info.mtime,
    mode: info.mode,
    dev: info.dev,
  };
}

async function readFile(path: string, range?: ReadRange): Promise<Uint8Array> {
  if (range === undefined) return await Deno.readFile(path);
  using file = await Deno.open(path);
  await file.seek(range.offset, Deno.SeekMode.Start);
  const buf = new Uint8Array(range.length);
  let filled = 0;
  while (filled < buf.length) {
    const n = await file.read(buf.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}

async function writeFileAtomic(
  path: string,
  data: Uint8Array,
  opts: WriteOptions = {},
): Promise<void> {
  if (opts.tempName !== undefined && !isTempFileName(opts.tempName)) {
    throw new TypeError(`Cannot write "${path}": "${opts.tempName}" is not a temporary file name`);
  }
  const target = opts.noFollow ? path : await Deno.realPath(path).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return path;
    throw err;
  });
  const tmp = join(opts.tempDir ?? dirname(target), opts.tempName ?? tempFileName(target));
  try {
    await Deno.writeFile(tmp, data, { createNew: true, mode: opts.mode ?? 0o666 });
    if (opts.mode !== undefined) await Deno.chmod(tmp, opts.mode);
    await Deno.rename(tmp, target);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
