/**
 * Puts a workspace file back into a checkpoint's state. Paths come from the session file, which
 * may be forged, so a path must be a plain relative path that stays in the workspace and does
 * not touch `.git`, and no folder on its way may be a symlink: a restore never writes outside.
 */
import { basename, dirname, isAbsolute, join, normalize } from "node:path";
import type { BlobStore } from "./_checkpoint_blobs.ts";
import type { PathState } from "./_tree_snapshot.ts";

/** Why `path` is not a workspace-relative path a checkpoint may name; undefined when it is. */
export function badPath(path: string): string | undefined {
  if (path === "" || isAbsolute(path) || path.includes("\\") || path.includes("\0")) {
    return "it is not a relative path";
  }
  const parts = path.split("/");
  if (normalize(path) !== path || parts.some((p) => p === ".." || p === "." || p === "")) {
    return "it is not a normalized path inside the workspace";
  }
  if (parts.includes(".git")) return "it is inside a .git folder";
  return undefined;
}

/**
 * Gives `path` (relative to `cwd`) the state `state`: the kept content and mode, the symlink,
 * or no file (null). Throws an Error saying why when it cannot.
 */
export async function restorePath(
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
  if (!await folderReady(cwd, dirname(path), state !== null)) return;
  const target = join(cwd, path);
  const info = await Deno.lstat(target).catch(() => undefined);
  if (info?.isDirectory) throw new Error("a folder is there now");
  if (state === null) {
    if (info) await Deno.remove(target);
    return;
  }
  if ("link" in state) {
    if (info) await Deno.remove(target);
    await Deno.symlink(state.link, target);
    return;
  }
  const bytes = await blobs.get(state.sha);
  const temp = join(dirname(target), `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.writeFile(temp, bytes, { createNew: true, mode: state.mode });
    await Deno.chmod(temp, state.mode);
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Checks that each folder of `dir` (relative to `cwd`) is a real folder, not a symlink; makes
 * missing ones when `make`. False when one is missing and not made (nothing to remove there).
 */
async function folderReady(cwd: string, dir: string, make: boolean): Promise<boolean> {
  if (dir === ".") return true;
  let current = cwd;
  for (const part of dir.split("/")) {
    current = join(current, part);
    const info = await Deno.lstat(current).catch(() => undefined);
    if (!info) {
      if (!make) return false;
      await Deno.mkdir(current);
      continue;
    }
    if (info.isSymlink) throw new Error(`its folder "${current}" is a symbolic link`);
    if (!info.isDirectory) throw new Error(`"${current}" is not a folder`);
  }
  return true;
}
