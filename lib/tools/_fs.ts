import type { ToolContext } from "./capability.ts";
import { ToolError } from "../errors.ts";
import { type FileSystem, FsRefusedError } from "../../sandbox/file_system.ts";
import type { ScratchSpace } from "../../sandbox/scratch_space.ts";

/**
 * The file system of `ctx`: `ctx.fs` (the session's, usually the sandboxed helper) with its
 * refused writes turned into ToolErrors that carry the sandbox's hint. A context without one is
 * a programming error, never a reason to touch the disk from this process.
 */
export function fsOf(ctx: ToolContext): FileSystem {
  const fs = ctx.fs;
  if (!fs) {
    throw new TypeError("Internal error: the tool context has no file system (ctx.fs)");
  }
  const guard =
    <A extends unknown[], R>(op: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      try {
        return await op(...args);
      } catch (err) {
        if (err instanceof FsRefusedError) throw new ToolError(err.message, err.hint);
        throw err;
      }
    };
  return {
    readFile: guard(fs.readFile.bind(fs)),
    stat: guard(fs.stat.bind(fs)),
    lstat: guard(fs.lstat.bind(fs)),
    readDir: guard(fs.readDir.bind(fs)),
    mtimes: guard(fs.mtimes.bind(fs)),
    writeFileAtomic: guard(fs.writeFileAtomic.bind(fs)),
    mkdirp: guard(fs.mkdirp.bind(fs)),
    remove: guard(fs.remove.bind(fs)),
    rename: guard(fs.rename.bind(fs)),
    realPath: guard(fs.realPath.bind(fs)),
  };
}

/** UTF-8 bytes as text: a byte order mark kept, invalid bytes replaced. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** The file's text (invalid UTF-8 replaced), or undefined when it does not exist. */
export async function readTextIfExists(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return decodeText(await fs.readFile(path));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** The scratch space of `ctx` (agent-private files); throws when the context has none. */
export function scratchOf(ctx: ToolContext): ScratchSpace {
  if (!ctx.scratch) {
    throw new TypeError("Internal error: the tool context has no scratch space (ctx.scratch)");
  }
  return ctx.scratch;
}
