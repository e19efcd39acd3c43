import { join } from "node:path";
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { fileGlobMatcher } from "./glob_match.ts";
import { fsOf } from "./_fs.ts";
import { displayPath, resolvePath } from "./_paths.ts";
import type { DirEntry, FileStat, FileSystem } from "../../sandbox/file_system.ts";

/** Most entries a listing returns; `truncated` says when there were more. */
export const MAX_LIST_ENTRIES = 1000;
/** Deepest `depth` accepted. */
const MAX_LIST_DEPTH = 64;
/** Folders never listed or entered below the root: VCS data, dependencies, build output. */
const SKIPPED_DIRS: readonly string[] = Object.freeze([
  ".git",
  "node_modules",
  "target",
  ".venv",
]);

/**
 * Input of `fs.list`. Harness mappings: deepseek `list_dir.path` → `path`; gemini
 * `list_directory.dir_path` → `path`, `ignore` → `ignore`; a swe-agent style two-level view sets
 * `depth = 2` in fixed_args.
 */
const fsListInput = z.object({
  path: z.string().optional()
    .describe("Folder to list, absolute or relative to the workspace; default the workspace"),
  ignore: z.array(z.string()).optional()
    .describe("Globs of entries to leave out; without a `/` a glob matches the entry name"),
  depth: z.number().int().min(1).max(MAX_LIST_DEPTH).optional()
    .describe("Levels to descend; 1 (the default) lists only the folder's own entries"),
  show_hidden: z.boolean().optional().describe("Include names starting with `.`; default false"),
});

/** One listed entry. */
export interface FsListEntry {
  /** Relative to the listed folder, `/`-separated. */
  path: string;
  kind: "file" | "dir" | "symlink";
  /** Bytes for files; null for folders and symlinks (symlinks are listed, not followed). */
  size: number | null;
}

/** Result of `fs.list`. */
export interface FsListOutput {
  /** The listed folder, relative to the workspace when inside it. */
  root: string;
  /**
   * Tree order: within each folder, folders first, then by name (case-insensitive, then
   * exact); a folder's own entries follow it directly when `depth` > 1.
   */
  entries: FsListEntry[];
  truncated: boolean;
}

/**
 * Lists a folder, optionally a few levels deep. Hidden entries are left out unless
 * `show_hidden`; SKIPPED_DIRS below the root are always left out; `.gitignore` is not read.
 */
export const fsList = defineCapability({
  id: "fs.list",
  input: fsListInput,
  mutates: false,
  async run(input, ctx): Promise<FsListOutput> {
    const fs = fsOf(ctx);
    const root = await listRoot(fs, resolvePath(ctx.cwd, input.path ?? "."), input.path ?? ".");
    const ignored = (input.ignore ?? []).filter((g) => g !== "").map(fileGlobMatcher);
    const entries: FsListEntry[] = [];
    let truncated = false;
    async function visit(rel: string, level: number): Promise<void> {
      ctx.signal.throwIfAborted();
      for (const entry of await sortedEntries(fs, join(root, rel))) {
        const path = rel + entry.name;
        if (!input.show_hidden && entry.name.startsWith(".")) continue;
        if (entry.isDirectory && SKIPPED_DIRS.includes(entry.name)) continue;
        const dirPath = entry.isDirectory ? `${path}/` : path;
        if (ignored.some((match) => match(path) || match(dirPath))) continue;
        if (entries.length === MAX_LIST_ENTRIES) {
          truncated = true;
          return;
        }
        entries.push(await describe(fs, join(root, path), { path, entry }));
        if (entry.isDirectory && level < (input.depth ?? 1)) await visit(`${path}/`, level + 1);
        if (truncated) return;
      }
    }
    await visit("", 1);
    return { root: displayPath(ctx.cwd, root), entries, truncated };
  },
});

async function listRoot(fs: FileSystem, abs: string, given: string): Promise<string> {
  let stat: FileStat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ToolError(`Cannot list "${given}": folder does not exist`, "Check the path");
    }
    throw err;
  }
  if (!stat.isDirectory) {
    throw new ToolError(`Cannot list "${given}": it is not a folder`, "Read the file instead");
  }
  return abs;
}

async function sortedEntries(fs: FileSystem, dir: string): Promise<DirEntry[]> {
  try {
    return (await fs.readDir(dir)).sort(compareEntries);
  } catch (err) {
    // A subfolder we may not read is listed but not entered.
    if (err instanceof Deno.errors.PermissionDenied) return [];
    throw err;
  }
}

/** Folders first, then by name ignoring case, then by exact name. */
function compareEntries(
  a: { name: string; isDirectory: boolean },
  b: { name: string; isDirectory: boolean },
): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  const la = a.name.toLowerCase();
  const lb = b.name.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function describe(
  fs: FileSystem,
  abs: string,
  { path, entry }: { path: string; entry: DirEntry },
): Promise<FsListEntry> {
  if (entry.isSymlink) return { path, kind: "symlink", size: null };
  if (entry.isDirectory) return { path, kind: "dir", size: null };
  const size = await fs.lstat(abs).then((s) => s.size, () => null);
  return { path, kind: "file", size };
}
