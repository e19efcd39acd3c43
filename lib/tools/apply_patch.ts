import * as z from "zod";
import { unifiedDiff } from "./_unified_diff.ts";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { atomicWrite } from "./_atomic_write.ts";
import { fsOf, readTextIfExists } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { applyHunks } from "./_patch_apply.ts";
import { parsePatch, type PatchOp } from "./_patch_parse.ts";
import { displayPath, resolvePath } from "./_paths.ts";

/** Input of `fs.apply_patch`. */
const applyPatchInput = z.object({
  patch: z.string().min(1).describe("Patch text in the *** Begin Patch envelope"),
});

/** One changed file. Paths are relative to the workspace when inside it. */
export interface FileChange {
  path: string;
  kind: "add" | "update" | "delete" | "move";
  movePath?: string;
  /** Unified diff with 3 lines of context. */
  diff: string;
  added: number;
  removed: number;
}

/** Result of `fs.apply_patch`. */
export interface ApplyPatchOutput {
  changes: FileChange[];
}

/**
 * Applies a patch in the `*** Begin Patch` envelope. All or nothing: every file's new text is
 * computed first, and files are written (atomically, one by one) only when all hunks apply.
 */
export const applyPatch = defineCapability({
  id: "fs.apply_patch",
  input: applyPatchInput,
  mutates: true,
  async run(input, ctx): Promise<ApplyPatchOutput> {
    const ops = parsePatch(input.patch);
    const files = new VirtualFiles(fsOf(ctx));
    const changes: FileChange[] = [];
    for (const op of ops) changes.push(await planOp(op, ctx.cwd, files));
    ctx.signal.throwIfAborted();
    await files.commit();
    return { changes };
  },
});

const NULL = "/dev/null";

async function planOp(op: PatchOp, cwd: string, files: VirtualFiles): Promise<FileChange> {
  const abs = resolvePath(cwd, op.path);
  const path = displayPath(cwd, abs);
  if (op.kind === "add") {
    const prior = await files.read(abs);
    files.write(abs, op.contents);
    return {
      path,
      kind: "add",
      ...(await unifiedDiff(prior === undefined ? NULL : path, path, {
        before: prior ?? "",
        after: op.contents,
      })),
    };
  }
  const before = await files.read(abs);
  if (before === undefined) {
    throw new ToolError(
      `Cannot ${op.kind} "${op.path}": file does not exist`,
      op.kind === "delete"
        ? "Check the path"
        : 'Check the path, or use "*** Add File:" for a new file',
    );
  }
  if (op.kind === "delete") {
    files.write(abs, undefined);
    return { path, kind: "delete", ...(await unifiedDiff(path, NULL, { before, after: "" })) };
  }
  const after = applyHunks(before, op.hunks, op.path);
  if (op.movePath === undefined) {
    files.write(abs, after);
    return { path, kind: "update", ...(await unifiedDiff(path, path, { before, after })) };
  }
  const dest = resolvePath(cwd, op.movePath);
  const movePath = displayPath(cwd, dest);
  if (dest !== abs) files.write(abs, undefined);
  files.write(dest, after, abs);
  return {
    path,
    kind: "move",
    movePath,
    ...(await unifiedDiff(path, movePath, { before, after })),
  };
}

/** Pending file contents keyed by absolute path; `undefined` marks a deletion. */
class VirtualFiles {
  #fs: FileSystem;
  #pending = new Map<string, string | undefined>();
  #original = new Map<string, string | undefined>();
  #modeFrom = new Map<string, string>();

  constructor(fs: FileSystem) {
    this.#fs = fs;
  }

  /** Current text of `abs`, including earlier pending changes; undefined when absent. */
  async read(abs: string): Promise<string | undefined> {
    if (this.#pending.has(abs)) return this.#pending.get(abs);
    if (!this.#original.has(abs)) this.#original.set(abs, await readIfFile(this.#fs, abs));
    return this.#original.get(abs);
  }

  /** Records the new text of `abs`, or its deletion; `modeFrom` names a file to copy the mode of. */
  write(abs: string, text: string | undefined, modeFrom?: string): void {
    this.#pending.set(abs, text);
    if (modeFrom !== undefined) this.#modeFrom.set(abs, modeFrom);
  }

  /** Writes every pending change to disk. */
  async commit(): Promise<void> {
    for (const [abs, text] of this.#pending) {
      if (text === undefined) continue;
      await atomicWrite(abs, text, { fs: this.#fs, modeFrom: this.#modeFrom.get(abs) });
    }
    for (const [abs, text] of this.#pending) {
      if (text === undefined) await this.#fs.remove(abs).catch(ignoreNotFound);
    }
  }
}

async function readIfFile(fs: FileSystem, abs: string): Promise<string | undefined> {
  try {
    return await readTextIfExists(fs, abs);
  } catch (err) {
    if (err instanceof Deno.errors.IsADirectory) {
      throw new ToolError(
        `Cannot patch "${abs}": it is a directory`,
        "Patch files, not directories",
      );
    }
    throw err;
  }
}

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof Deno.errors.NotFound)) throw err;
}
