/**
 * Files the agent writes for the user outside the sandbox (`exec -o`, `--trajectory`): never
 * through a symbolic link. Inside one of the sandbox's writable roots, where a sandboxed command
 * (a background job) can swap a folder for a link at any moment, the file is written by a one-off
 * sandboxed file helper that has only that root writable, so a swapped folder leads to a
 * read-only mount; a link the helper finds on the way or at the file is refused. Elsewhere, and
 * where bubblewrap cannot run (danger-full-access, macOS), `writeWholeNoFollow()` writes it.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ConfigValues } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import {
  areaTop,
  makeFoldersNoFollow,
  refuseLinkAt,
  type WholeFileWriter,
  writeWholeNoFollow,
} from "../trajectory/write.ts";
import { DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";
import type { SandboxMode } from "../../sandbox/command_sandbox.ts";
import { FsRefusedError, tempFileName } from "../../sandbox/file_system.ts";
import { type FsHelper, startFsHelper } from "../../sandbox/fs_helper_client.ts";
import { probeBubblewrap } from "../../sandbox/probe.ts";
import { findGitRoot } from "./git_root.ts";

/** Where a session's output files go: its cwd and what its sandbox lets commands write. */
export interface OutputPlace {
  cwd: string;
  mode: SandboxMode;
  /** The sandbox's writable roots (the cwd first) under workspace-write; else none. */
  writableRoots: string[];
  /** The bubblewrap program the session uses (`OPENINTERPRETER_BWRAP`), when not the system's. */
  bwrap?: string;
}

/** Options of `writeOutputFile()`: the place, and a seam for tests. */
export interface OutputWriteOptions extends OutputPlace {
  /** Runs after the link checks, right before the bytes are written (a test puts a race there). */
  beforeWrite?: () => Promise<void>;
}

/** The output place of a session with these config values, cwd and environment. */
export function outputPlaceOf(
  values: {
    sandbox_mode: ConfigValues["sandbox_mode"];
    sandbox_workspace_write: { writable_roots: string[] };
  },
  cwd: string,
  env: Record<string, string>,
): OutputPlace {
  const mode = values.sandbox_mode;
  const roots = values.sandbox_workspace_write.writable_roots.map((root) => resolve(cwd, root));
  return {
    cwd,
    mode,
    writableRoots: mode === "workspace-write" ? [cwd, ...roots] : [],
    ...(env.OPENINTERPRETER_BWRAP ? { bwrap: env.OPENINTERPRETER_BWRAP } : {}),
  };
}

/** `writeOutputFile()` for `place`, as the `write` option of `writeTrajectory()` takes it. */
export function outputWriter(place: OutputPlace): WholeFileWriter {
  return (path, data) => writeOutputFile(path, data, place);
}

/**
 * Writes `data` to `path` (resolved against the process's cwd) whole and never through a link:
 * a link at the file, or on the way below the cwd, its repository or a writable root, is refused
 * with a `LinkedPathError` naming it. Missing folders are made.
 */
export async function writeOutputFile(
  path: string,
  data: string | Uint8Array,
  place: OutputWriteOptions,
): Promise<void> {
  const file = resolve(path);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const top = place.writableRoots.length ? await areaTop(file, place.writableRoots) : undefined;
  const helper = top === undefined ? undefined : await oneOffHelper(top, file, place);
  if (helper !== undefined) {
    await using fs = helper.fs;
    const { top, root } = helper;
    return await writeInHelper(fs, { top, root, file, bytes, beforeWrite: place.beforeWrite });
  }
  const repo = await findGitRoot(place.cwd);
  const linkFree = [place.cwd, ...(repo ? [repo] : []), ...place.writableRoots];
  await writeWholeNoFollow(file, bytes, { linkFree, beforeWrite: place.beforeWrite });
}

/**
 * A helper process under bubblewrap with only `top`'s real path writable (the protected names
 * under it read-only, but for one the file lies in); undefined where bubblewrap cannot run.
 */
async function oneOffHelper(
  top: string,
  file: string,
  place: OutputPlace,
): Promise<{ fs: FsHelper; top: string; root: string } | undefined> {
  if (Deno.build.os !== "linux") return undefined;
  const probe = await probeBubblewrap(place.bwrap ? { bwrap: place.bwrap } : {});
  if (!probe.ok) return undefined;
  const root = await Deno.realPath(top);
  const target = join(root, relative(top, file));
  const protectedNames = DEFAULT_PROTECTED_NAMES.filter((name) =>
    !isInside(target, join(root, name))
  );
  const fs = await startFsHelper({
    policy: {
      mode: "workspace-write",
      writableRoots: [root],
      protectedNames,
      networkAccess: false,
      privateTmp: false,
    },
    bwrap: probe.bwrap,
    disableUserns: probe.supportsDisableUserns,
  }).catch((error) => {
    throw new UserError(
      `Cannot start the sandboxed file helper to write "${file}": ${(error as Error).message}`,
      { hint: "Pass a path outside the sandbox's writable folders", cause: error },
    );
  });
  return { fs, top, root };
}

/**
 * In the helper: the folders made one at a time without following links, a link at the file
 * refused, then the atomic write. A link planted meanwhile leads to a read-only mount.
 */
async function writeInHelper(
  fs: FsHelper,
  at: {
    top: string;
    root: string;
    file: string;
    bytes: Uint8Array;
    beforeWrite?: () => Promise<void>;
  },
): Promise<void> {
  const { top, root, file, bytes } = at;
  const target = join(root, relative(top, file));
  const shown = (path: string) => join(top, relative(root, path));
  const tempName = tempFileName(target);
  try {
    await makeFoldersNoFollow(fs, root, dirname(target), shown);
    await refuseLinkAt(fs, target, shown);
    await at.beforeWrite?.();
    await fs.writeFileAtomic(target, bytes, { tempName });
  } catch (error) {
    await fs.remove(join(dirname(target), tempName)).catch(() => {});
    if (!(error instanceof FsRefusedError)) throw error;
    throw new UserError(
      `"${file}" could not be written: a folder on the way was replaced by a link leading ` +
        `outside "${top}" while it was written`,
      {
        hint: `Something in the sandbox changed the folders of "${basename(file)}"; stop the ` +
          "session's background commands, check the folders, or pass another path",
        cause: error,
      },
    );
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
