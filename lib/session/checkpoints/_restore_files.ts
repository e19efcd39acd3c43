/**
 * Puts a workspace file back into a checkpoint's state. Paths come from the session file, which
 * may be forged, so a path must be a plain relative path that stays in the workspace and names
 * none of the names the sandbox protects (`.git`, `.agents`, `.openinterpreter`).
 *
 * Every write goes through `fs`, the restore's file helper (`_restore_writer.ts`): under bwrap
 * only the workspace is writable there, so a folder a concurrent process swaps for a symlink
 * between the checks below and the write leads to a place the kernel refuses. The checks by path
 * only give a clear message in the ordinary case.
 */
import { dirname, join } from "node:path";
import type { FileStat, RestoringFileSystem } from "../../../sandbox/file_system.ts";
import { UserError } from "../../errors.ts";
import type { BlobStore } from "./_checkpoint_blobs.ts";
import { badPath } from "./_restore_paths.ts";
import type { OpenRestoreWriter } from "./_restore_writer.ts";
import { type PathState, sameState, stateNow } from "./_tree_snapshot.ts";
import type { ConfirmOverwrite, RewindResult } from "./checkpoint_types.ts";

/** What `restoreStates()` works with. */
export interface RestoreJob {
  cwd: string;
  blobs: BlobStore;
  /** Each path's state as the agent (or a rewind) last left it; updated as files are restored. */
  left: Map<string, PathState>;
  openWriter: OpenRestoreWriter;
  confirm: ConfirmOverwrite;
}

/**
 * Gives each path of `states` its state there, asking `job.confirm` before overwriting files
 * changed since the agent left them; adds what happened to `result` and returns what it wrote.
 */
export async function restoreStates(
  states: Map<string, PathState>,
  job: RestoreJob,
  result: RewindResult,
): Promise<Record<string, PathState>> {
  const { cwd, blobs, left } = job;
  const work: Array<[string, PathState]> = [];
  const theirs: string[] = [];
  for (const [path, state] of states) {
    const now = await stateNow(join(cwd, path), blobs).catch(() => undefined);
    if (sameState(now, state)) continue;
    const agents = left.get(path);
    if (now === undefined || (agents !== undefined && !sameState(now, agents))) theirs.push(path);
    work.push([path, state]);
  }
  const overwrite = theirs.length === 0 || await job.confirm(theirs.sort());
  const todo = work.filter(([path]) => overwrite || !theirs.includes(path));
  result.kept.push(...theirs.filter(() => !overwrite).sort());
  const wrote: Record<string, PathState> = {};
  if (todo.length === 0) return wrote;
  await using writer = await job.openWriter(cwd).catch((error: Error) => {
    throw new UserError(`Cannot restore the files: ${error.message}`, { cause: error });
  });
  if (writer.unconfined) result.unconfined = writer.unconfined;
  for (const [path, state] of todo.sort(([a], [b]) => a < b ? -1 : 1)) {
    try {
      await restorePath(writer.fs, cwd, path, { state, blobs });
      (state === null ? result.removed : result.restored).push(path);
      wrote[path] = state;
      left.set(path, state);
    } catch (error) {
      result.failed.push({ path, why: (error as Error).message });
    }
  }
  return wrote;
}

/**
 * Gives `path` (relative to `cwd`) the state `state` through `fs`: the kept content and mode,
 * the symlink, or no file (null). Throws an Error saying why when it cannot.
 */
export async function restorePath(
  fs: RestoringFileSystem,
  cwd: string,
  path: string,
  opts: { state: PathState; blobs: BlobStore },
): Promise<void> {
  const bad = badPath(path);
  if (bad) throw new Error(bad);
  const { state, blobs } = opts;
  if (state !== null && "big" in state) {
    throw new Error(`it was too big to keep a copy of (${Math.ceil(state.big / 2 ** 20)} MiB)`);
  }
  if (!await folderReady(fs, cwd, dirname(path), state !== null)) return;
  const target = join(cwd, path);
  const info = await lstatOrUndefined(fs, target);
  if (info?.isDirectory) throw new Error("a folder is there now");
  if (state === null) {
    if (info) await fs.remove(target);
    return;
  }
  if ("link" in state) {
    if (info) await fs.remove(target);
    await fs.symlink(state.link, target);
    return;
  }
  await writeWhole(fs, cwd, target, { bytes: await blobs.get(state.sha), mode: state.mode });
}

/**
 * Writes `target` whole, replacing what is there (a symlink too). The temporary file is made at
 * the workspace's top, which a sandboxed process cannot move away; beside the target only when
 * its folder is a mount of another device (a rename refused for a folder swapped meanwhile fails).
 */
async function writeWhole(
  fs: RestoringFileSystem,
  cwd: string,
  target: string,
  file: { bytes: Uint8Array; mode: number },
): Promise<void> {
  const opts = { mode: file.mode, noFollow: true };
  try {
    await fs.writeFileAtomic(target, file.bytes, { ...opts, tempDir: cwd });
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EXDEV") throw error;
    if (!await onOtherDevice(fs, cwd, dirname(target))) {
      throw new Error("its folder changed while it was written");
    }
    await fs.writeFileAtomic(target, file.bytes, opts);
  }
}

/** Whether `folder` is a real folder on another device than `cwd`. */
async function onOtherDevice(fs: RestoringFileSystem, cwd: string, folder: string) {
  const [top, here] = await Promise.all([fs.lstat(cwd), lstatOrUndefined(fs, folder)]);
  if (!here?.isDirectory || here.isSymlink) return false;
  return top.dev == null || here.dev == null || top.dev !== here.dev;
}

/**
 * Checks that each folder of `dir` (relative to `cwd`) is a real folder, not a symlink; makes
 * missing ones when `make`. False when one is missing and not made (nothing to remove there).
 */
async function folderReady(
  fs: RestoringFileSystem,
  cwd: string,
  dir: string,
  make: boolean,
): Promise<boolean> {
  if (dir === ".") return true;
  let current = cwd;
  for (const part of dir.split("/")) {
    current = join(current, part);
    const info = await lstatOrUndefined(fs, current);
    if (!info) {
      if (!make) return false;
      await fs.mkdirp(current);
      continue;
    }
    if (info.isSymlink) throw new Error(`its folder "${current}" is a symbolic link`);
    if (!info.isDirectory) throw new Error(`"${current}" is not a folder`);
  }
  return true;
}

async function lstatOrUndefined(
  fs: RestoringFileSystem,
  path: string,
): Promise<FileStat | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
