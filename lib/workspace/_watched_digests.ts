/**
 * Digests of the files `held_back.ts` watches. A watched folder is checked file by file up to
 * fixed limits; one it cannot check whole (too many entries, too many bytes, a part that cannot
 * be read) is not trusted in part: it gets one digest that says why it was not checked and that
 * never counts as unchanged, so that the whole folder is held back.
 */
import { basename, join, relative } from "node:path";

/**
 * Watched paths as absolute path → SHA-256 hex of the file's bytes; a folder that could not be
 * checked maps to `uncheckedDigest(reason)`.
 */
export type Digests = Record<string, string>;

/** Files and folders checked at most in one watched folder (a runaway skills folder). */
const MAX_ENTRIES_PER_FOLDER = 200;
/** Bytes read at most in one watched folder. */
const MAX_BYTES_PER_FOLDER = 64 * 1024 * 1024;

const UNCHECKED = "unchecked: ";

/** The digest of a folder not checked, with the reason ("more than 200 files and folders"). */
function uncheckedDigest(reason: string): string {
  return `${UNCHECKED}${reason}`;
}

/** Why the folder with `digest` was not checked; undefined for a file's digest. */
export function uncheckedReason(digest: string | undefined): string | undefined {
  return digest?.startsWith(UNCHECKED) ? digest.slice(UNCHECKED.length) : undefined;
}

/** Files of a watched folder that are watched on their own, not as a whole tree. */
const SINGLE_FILES: Record<string, string[]> = {
  ".openinterpreter": ["config.toml", "hooks.json"],
  ".git": [".", "config"],
};

/** Digests every watched file of `folders` (see `SINGLE_FILES`; other folders whole). */
export async function digestFolders(folders: string[]): Promise<Digests> {
  const out: Digests = {};
  for (const folder of folders) {
    const single = SINGLE_FILES[basename(folder)];
    if (single) {
      for (const name of single) await digestSingle(out, join(folder, name));
      continue;
    }
    const files: Digests = {};
    const problem = await digestTree(folder, files);
    if (problem === undefined) Object.assign(out, files);
    else out[folder] = uncheckedDigest(problem);
  }
  return out;
}

/** Digests each of `files` that is a readable regular file; others are left out. */
export async function digestFiles(files: readonly string[]): Promise<Digests> {
  const out: Digests = {};
  for (const path of files) await digestSingle(out, path);
  return out;
}

/**
 * Adds `path`'s digest when it is a readable regular file (a `.git` pointer file included). One
 * past `MAX_BYTES_PER_FOLDER` gets the digest of that much, marked, which still tells changes.
 */
async function digestSingle(out: Digests, path: string): Promise<void> {
  const bytes = await readRegular(path, MAX_BYTES_PER_FOLDER).catch(() => undefined);
  if (!bytes) return;
  const over = bytes.length > MAX_BYTES_PER_FOLDER;
  out[path] = await sha256Hex(bytes.subarray(0, MAX_BYTES_PER_FOLDER)) + (over ? "+" : "");
}

/**
 * Up to `max + 1` bytes of `path` when it is a regular file (through links), else undefined.
 * The open file is checked too, and no more is read, so a file swapped for a FIFO's or
 * `/dev/zero`'s link after the first check reads nothing or a bounded amount. Rejects as
 * `Deno.stat` does when it is missing.
 */
async function readRegular(
  path: string,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!(await Deno.stat(path)).isFile) return undefined;
  using file = await Deno.open(path);
  if (!(await file.stat()).isFile) return undefined;
  const out = new Uint8Array(max + 1);
  let filled = 0;
  while (filled < out.length) {
    const n = await file.read(out.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return out.subarray(0, filled);
}

/** A walk through one watched folder. */
interface Walk {
  folder: string;
  bytes: number;
  out: Digests;
}

/**
 * Digests the files under `folder` into `out`; returns why the folder cannot be checked whole,
 * or undefined when it was (a missing folder included). Symlinked folders are not entered,
 * as skills discovery does not enter them.
 */
async function digestTree(folder: string, out: Digests): Promise<string | undefined> {
  const walk: Walk = { folder, bytes: 0, out };
  let entries = 0;
  const pending = [folder];
  while (pending.length) {
    const dir = pending.pop()!;
    let listing: Deno.DirEntry[];
    try {
      listing = await listUpTo(dir, MAX_ENTRIES_PER_FOLDER - entries);
    } catch (error) {
      if (isGone(error) || (dir === folder && error instanceof Deno.errors.NotADirectory)) continue;
      return unreadable(folder, dir, error);
    }
    entries += listing.length;
    if (entries > MAX_ENTRIES_PER_FOLDER) {
      return `more than ${MAX_ENTRIES_PER_FOLDER} files and folders, more than are checked`;
    }
    for (const entry of listing) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        pending.push(path);
        continue;
      }
      const problem = await digestFile(walk, path);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Up to `max + 1` entries of `dir`: one more shows that there are too many. */
async function listUpTo(dir: string, max: number): Promise<Deno.DirEntry[]> {
  const listing: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) {
    listing.push(entry);
    if (listing.length > max) break;
  }
  return listing;
}

/** Digests `path` when it is a regular file (through a symlink too); returns a problem. */
async function digestFile(walk: Walk, path: string): Promise<string | undefined> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    if (walk.bytes + info.size > MAX_BYTES_PER_FOLDER) return tooManyBytes();
    bytes = await readRegular(path, MAX_BYTES_PER_FOLDER - walk.bytes);
    if (!bytes) return undefined;
  } catch (error) {
    return isGone(error) ? undefined : unreadable(walk.folder, path, error);
  }
  walk.bytes += bytes.length;
  if (walk.bytes > MAX_BYTES_PER_FOLDER) return tooManyBytes();
  walk.out[path] = await sha256Hex(bytes);
  return undefined;
}

function tooManyBytes(): string {
  return `more than ${MAX_BYTES_PER_FOLDER / 1024 / 1024} MiB, more than is checked`;
}

function unreadable(folder: string, path: string, error: unknown): string {
  const where = relative(folder, path) || ".";
  const why = error instanceof Error ? error.message : String(error);
  return `a part that could not be read (${where}: ${why})`;
}

/** A path removed between the listing and the read, or a dangling symlink. */
function isGone(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
