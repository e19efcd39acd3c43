/**
 * Snapshots of the workspace's files for checkpoints: each file's state (content hash and mode,
 * a symlink's target), with every content kept in the blob store. A file whose size, times and
 * inode are those of the previous snapshot is not read again (as git's index does), unless it
 * changed so recently that a change within the same clock tick could hide (git's "racy" files).
 */
import { join } from "node:path";
import { sha256Hex } from "../../tools/_edit_history.ts";
import type { BlobStore } from "./_checkpoint_blobs.ts";
import type { Listing } from "./_workspace_listing.ts";

/**
 * A file's state: a regular file's content (kept under `sha`) and permission bits, a symlink's
 * target, or, for a file too big to keep, its size and change stamp.
 */
export type FileState =
  | { sha: string; mode: number }
  | { link: string }
  | { big: number; stamp: string };

/** A file's state, or null where there is no file. */
export type PathState = FileState | null;

/** Largest file a checkpoint keeps a copy of. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Most new content one snapshot keeps; beyond it the snapshot is partial. */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/** Files changed this recently (ms) are read again even when their stamp is unchanged. */
const RACY_MS = 2000;

/** The workspace's files at one moment. */
export interface Snapshot {
  takenAt: number;
  /** Workspace-relative path → state, for every file listed. */
  files: Map<string, FileState>;
  /** Path → size, times and inode when read, to skip reading it again next time. */
  stamps: Map<string, string>;
  /** Why the snapshot does not cover every file; unset when it does. */
  partial?: string;
}

/** An empty snapshot that covers nothing, and why. */
function noSnapshot(why: string): Snapshot {
  return { takenAt: Date.now(), files: new Map(), stamps: new Map(), partial: why };
}

/**
 * Snapshots the `listing` of `cwd`, keeping new contents in `blobs`; `previous` saves reading
 * unchanged files again.
 */
export async function takeSnapshot(
  cwd: string,
  listing: Listing,
  opts: { blobs: BlobStore; previous?: Snapshot },
): Promise<Snapshot> {
  if ("unavailable" in listing) return noSnapshot(listing.unavailable);
  const snapshot: Snapshot = { takenAt: Date.now(), files: new Map(), stamps: new Map() };
  let kept = 0;
  for (const path of listing.paths) {
    const info = await Deno.lstat(join(cwd, path)).catch(() => undefined);
    if (!info || !(info.isFile || info.isSymlink)) continue;
    const stamp = stampOf(info);
    const reused = opts.previous && reusable(opts.previous, path, stamp, info);
    if (reused) {
      snapshot.files.set(path, reused);
      snapshot.stamps.set(path, stamp);
      continue;
    }
    if (info.isFile && info.size <= MAX_FILE_BYTES && kept + info.size > MAX_SNAPSHOT_BYTES) {
      snapshot.partial = `more than ${MAX_SNAPSHOT_BYTES >> 20} MiB of files changed at once`;
      break;
    }
    const state = await readState(join(cwd, path), info, opts.blobs).catch(() => undefined);
    if (!state) continue;
    if ("sha" in state) kept += info.size;
    snapshot.files.set(path, state);
    snapshot.stamps.set(path, stamp);
  }
  return snapshot;
}

/** The state of `path` now (null: no file), its content kept in `blobs`. */
export async function stateNow(path: string, blobs: BlobStore): Promise<PathState> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (!info.isFile && !info.isSymlink) return { big: 0, stamp: "not a file" };
  return await readState(path, info, blobs);
}

async function readState(path: string, info: Deno.FileInfo, blobs: BlobStore): Promise<FileState> {
  if (info.isSymlink) return { link: await Deno.readLink(path) };
  if (info.size > MAX_FILE_BYTES) return { big: info.size, stamp: stampOf(info) };
  const bytes = await Deno.readFile(path);
  const sha = await sha256Hex(bytes);
  await blobs.put(sha, bytes);
  return { sha, mode: (info.mode ?? 0o644) & 0o777 };
}

function reusable(
  previous: Snapshot,
  path: string,
  stamp: string,
  info: Deno.FileInfo,
): FileState | undefined {
  if (previous.stamps.get(path) !== stamp) return undefined;
  const changed = Math.max(info.mtime?.getTime() ?? Infinity, info.ctime?.getTime() ?? 0);
  if (changed >= previous.takenAt - RACY_MS) return undefined;
  return previous.files.get(path);
}

function stampOf(info: Deno.FileInfo): string {
  return [info.size, info.mtime?.getTime(), info.ctime?.getTime(), info.ino, info.mode].join(":");
}

/** True when `a` and `b` are the same state (both no file included). */
export function sameState(a: PathState | undefined, b: PathState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a === null || b === null) return a === b;
  if ("sha" in a) return "sha" in b && a.sha === b.sha && a.mode === b.mode;
  if ("link" in a) return "link" in b && a.link === b.link;
  return "big" in b && a.big === b.big && a.stamp === b.stamp;
}

/**
 * The state of `path` in `snapshot`: its file's, null when a complete snapshot has none, and
 * undefined (unknown) when a partial snapshot has none.
 */
function stateIn(snapshot: Snapshot, path: string): PathState | undefined {
  return snapshot.files.get(path) ?? (snapshot.partial ? undefined : null);
}

/** The paths whose state differs between `before` and `after`, with both states, by path. */
export function changesBetween(
  before: Snapshot,
  after: Snapshot,
): Map<string, { before: PathState; after: PathState }> {
  const changes = new Map<string, { before: PathState; after: PathState }>();
  for (const path of new Set([...before.files.keys(), ...after.files.keys()])) {
    const [was, is] = [stateIn(before, path), stateIn(after, path)];
    if (was === undefined || is === undefined || sameState(was, is)) continue;
    changes.set(path, { before: was, after: is });
  }
  return changes;
}
