/**
 * Writes output files whole (a reader such as Harbor or `eval report` never sees half of one) and
 * never through a symbolic link: a link at the file's own path is refused, and so is one on the
 * way inside the folders a repository or a sandboxed command can change (the working directory,
 * its repository, the sandbox's writable roots). The file is made under an exclusive temp name in
 * its folder and renamed into place, which replaces whatever is at the path, never what it
 * points to. `lib/workspace/output_file.ts` adds the sandboxed variant for writable roots.
 */
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { UserError } from "../errors.ts";
import type { Trajectory } from "./atif.ts";

/** Writes one whole output file; `writeWholeNoFollow()` with the process's cwd by default. */
export type WholeFileWriter = (path: string, data: Uint8Array) => Promise<void>;

/** Options of the `write…Whole` functions. */
export interface WholeFileOptions {
  /** How the bytes reach the disk; default `writeWholeNoFollow()` guarding the process's cwd. */
  write?: WholeFileWriter;
}

/** A symbolic link where an output file or one of its folders would be. */
export class LinkedPathError extends UserError {
  /** The link, as the user spelled the path. */
  readonly path: string;
  constructor(message: string, opts: { path: string; hint: string }) {
    super(message, { hint: opts.hint });
    this.path = opts.path;
  }
}

/**
 * Writes `trajectory` as indented JSON to `path` whole (see `writeJsonWhole`); a failure is a
 * `UserError` naming the file.
 */
export async function writeTrajectory(
  path: string,
  trajectory: Trajectory,
  opts: WholeFileOptions = {},
): Promise<void> {
  await writeJsonWhole(path, trajectory, opts).catch((error) => {
    throw new UserError(
      `Cannot write the trajectory to "${resolve(path)}": ${(error as Error).message}`,
      {
        hint: hintOf(error, "Pass --trajectory a file in a directory you can write to"),
        cause: error,
      },
    );
  });
}

/** The hint of a `UserError` (a refused link says what to do), else `fallback`. */
export function hintOf(error: unknown, fallback: string): string {
  return (error instanceof UserError && error.hint) || fallback;
}

/** Writes `value` as indented JSON to `path` whole, never through a link (folder made). */
export async function writeJsonWhole(
  path: string,
  value: unknown,
  opts: WholeFileOptions = {},
): Promise<void> {
  await writeTextWhole(path, `${JSON.stringify(value, null, 2)}\n`, opts);
}

/** Writes `text` to `path` whole, never through a link (folder made when missing). */
export async function writeTextWhole(
  path: string,
  text: string,
  opts: WholeFileOptions = {},
): Promise<void> {
  const write = opts.write ?? ((file, data) => writeWholeNoFollow(file, data));
  await write(path, new TextEncoder().encode(text));
}

/**
 * Writes `data` to `path` through an exclusive temp file in its folder, renamed over it; the
 * temp file is removed on every failure. A link at `path` is refused; missing folders are made,
 * and below the first of `linkFree` (default: the process's cwd) that holds the file, a link on
 * the way is refused too. Folders above it (the user's own layout) are followed.
 */
export async function writeWholeNoFollow(
  path: string,
  data: Uint8Array,
  opts: {
    linkFree?: string[];
    /** Runs after the checks, right before the write (a test puts a race there). */
    beforeWrite?: () => Promise<void>;
  } = {},
): Promise<void> {
  const file = resolve(path);
  const dir = dirname(file);
  const top = await areaTop(file, opts.linkFree ?? processCwd());
  if (top === undefined) await Deno.mkdir(dir, { recursive: true });
  else await makeFoldersNoFollow(HOST_FOLDERS, top, dir);
  await refuseLinkAt(HOST_FOLDERS, file);
  await opts.beforeWrite?.();
  const temp = join(dir, `.${basename(file)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  let created = false;
  try {
    // createNew is O_CREAT|O_EXCL: it never opens through a link, and never an existing file.
    using handle = await Deno.open(temp, { write: true, createNew: true });
    created = true;
    for (let done = 0; done < data.length;) done += await handle.write(data.subarray(done));
    await Deno.rename(temp, file);
  } catch (error) {
    if (created) await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

function processCwd(): string[] {
  try {
    return [Deno.cwd()];
  } catch {
    return [];
  }
}

/** The folder operations a walk needs; `sandbox/file_system.ts`'s `FileSystem` has them. */
export interface FolderOps {
  lstat(path: string): Promise<{ isSymlink: boolean; isDirectory: boolean }>;
  /** Makes the folder (and missing parents; the walk only asks for one level). */
  mkdirp(path: string): Promise<void>;
}

const HOST_FOLDERS: FolderOps = {
  lstat: (path) => Deno.lstat(path),
  mkdirp: (path) => Deno.mkdir(path, { recursive: true }),
};

/**
 * The outermost folder that holds `file` (an ancestor of its folder, the folder included) and is
 * one of `roots`, compared by real path; spelled as in `file`. Undefined when none is.
 */
export async function areaTop(file: string, roots: string[]): Promise<string | undefined> {
  const real = new Set<string>();
  for (const root of roots) {
    const path = await Deno.realPath(root).catch(() => undefined);
    if (path !== undefined) real.add(path);
  }
  const ancestors = [dirname(file)];
  while (dirname(ancestors[0]) !== ancestors[0]) ancestors.unshift(dirname(ancestors[0]));
  for (const ancestor of ancestors) {
    const path = await Deno.realPath(ancestor).catch(() => undefined);
    if (path === undefined) return undefined;
    if (real.has(path)) return ancestor;
  }
  return undefined;
}

/**
 * Makes `dir` below `top` one folder at a time, refusing any that is a link (or not a folder);
 * `top` itself is trusted. `shown` turns a path into the spelling the user gave.
 */
export async function makeFoldersNoFollow(
  ops: FolderOps,
  top: string,
  dir: string,
  shown: (path: string) => string = (path) => path,
): Promise<void> {
  let path = top;
  for (const name of relative(top, dir).split(sep).filter(Boolean)) {
    path = join(path, name);
    let info = await lstatOrUndefined(ops, path);
    if (info === undefined) {
      await ops.mkdirp(path);
      info = await ops.lstat(path);
    }
    if (info.isSymlink) throw await linkRefusal(path, shown, "folder");
    if (!info.isDirectory) {
      throw new UserError(`"${shown(path)}" on the way is a file, not a folder`, {
        hint: "Pass a path whose folders are folders, or move that file away",
      });
    }
  }
}

/** Refuses a link or a folder at `file`; a missing file or a plain one is fine. */
export async function refuseLinkAt(
  ops: FolderOps,
  file: string,
  shown: (path: string) => string = (path) => path,
): Promise<void> {
  const info = await lstatOrUndefined(ops, file);
  if (info?.isSymlink) throw await linkRefusal(file, shown, "file");
  if (info?.isDirectory) {
    throw new UserError(`"${shown(file)}" is a folder`, { hint: "Pass the path of a file" });
  }
}

async function lstatOrUndefined(
  ops: FolderOps,
  path: string,
): Promise<{ isSymlink: boolean; isDirectory: boolean } | undefined> {
  try {
    return await ops.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * The refusal naming the link and where it points (read here: reading a link follows nothing).
 * Worded to follow "Cannot write … to "FILE": ", as every caller puts it.
 */
async function linkRefusal(
  path: string,
  shown: (path: string) => string,
  what: "file" | "folder",
): Promise<LinkedPathError> {
  const target = await Deno.readLink(path).catch(() => undefined);
  const to = target === undefined ? "" : ` to "${target}"`;
  const link = what === "file" ? "it" : `the folder "${shown(path)}" on the way`;
  return new LinkedPathError(
    `${link} is a symbolic link${to}; output files are never written through links`,
    {
      path: shown(path),
      hint: what === "file"
        ? `Pass another path, or remove the link ("${shown(path)}") if you mean to replace it`
        : `Pass a path without the link, or remove the link ("${shown(path)}") and run again`,
    },
  );
}
