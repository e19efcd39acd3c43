import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { atomicWrite } from "./_atomic_write.ts";
import { fsOf, readTextIfExists } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { displayPath, resolvePath } from "./_paths.ts";
import { recordRead } from "./_read_records.ts";
import { unifiedDiff } from "./_unified_diff.ts";

/** Input of `fs.write`. */
const fsWriteInput = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the workspace"),
  content: z.string().describe("The whole new text of the file, or the text to append"),
  mode: z.enum(["overwrite", "append"]).optional()
    .describe("`append` adds `content` at the end (creating the file); default `overwrite`"),
});

/** Result of `fs.write`. */
export interface FsWriteOutput {
  /** Relative to the workspace when inside it. */
  path: string;
  absolutePath: string;
  /** UTF-8 length of the content. */
  bytes: number;
  /** UTF-8 length of the whole file after the write (more than `bytes` after an append). */
  size: number;
  /** Whether the content was appended rather than written over the file. */
  appended: boolean;
  /** Whether the file did not exist before. */
  created: boolean;
  /** Unified diff from the old text (or /dev/null) to the new one. */
  diff: string;
}

/**
 * Writes a whole file atomically (temp file and rename), keeping the mode of an existing file
 * and creating parent folders. The written file counts as read for `fs.edit`.
 */
export const fsWrite = defineCapability({
  id: "fs.write",
  input: fsWriteInput,
  mutates: true,
  async run(input, ctx): Promise<FsWriteOutput> {
    const abs = resolvePath(ctx.cwd, input.path);
    const path = displayPath(ctx.cwd, abs);
    const fs = fsOf(ctx);
    const before = await readIfExists(fs, abs, input.path);
    ctx.signal.throwIfAborted();
    const after = input.mode === "append" ? (before ?? "") + input.content : input.content;
    await atomicWrite(abs, after, { fs });
    recordRead(ctx, abs, await fs.stat(abs));
    const encoder = new TextEncoder();
    return {
      path,
      absolutePath: abs,
      bytes: encoder.encode(input.content).length,
      size: encoder.encode(after).length,
      appended: input.mode === "append",
      created: before === undefined,
      diff: (await unifiedDiff(before === undefined ? "/dev/null" : path, path, {
        before: before ?? "",
        after,
      })).diff,
    };
  },
});

async function readIfExists(
  fs: FileSystem,
  abs: string,
  given: string,
): Promise<string | undefined> {
  try {
    return await readTextIfExists(fs, abs);
  } catch (err) {
    if (err instanceof Deno.errors.IsADirectory) {
      throw new ToolError(`Cannot write "${given}": it is a directory`, "Write to a file path");
    }
    throw err;
  }
}
