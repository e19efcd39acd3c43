/**
 * The files a checkpoint snapshot covers: in a git work tree, what `git ls-files` lists under
 * the working directory (tracked and untracked, ignored files left out), run through the
 * agent's safe git; in a plain folder, every file under it, up to a limit.
 */
import { relative } from "node:path";
import type { GitResult } from "../../workspace/safe_git.ts";

/** Workspace-relative paths ("/"-separated), or why the files could not be listed. */
export type Listing = { paths: string[] } | { unavailable: string };

/** Most files a snapshot covers: beyond it, only the edit tools' changes are checkpointed. */
const MAX_FILES = 20_000;

/** Folders a plain folder's walk does not enter: a repository's data, installed packages. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);

/** What listing a workspace needs: its repository, and git run safely at its root. */
export interface ListingSources {
  gitRoot(): Promise<string | undefined>;
  repoGit(args: string[]): Promise<GitResult>;
}

/** The files under `cwd` a snapshot covers (see the module comment). */
export async function listWorkspaceFiles(cwd: string, sources: ListingSources): Promise<Listing> {
  const root = await sources.gitRoot();
  return root ? await gitFiles(cwd, root, sources) : await folderFiles(cwd);
}

async function gitFiles(cwd: string, root: string, sources: ListingSources): Promise<Listing> {
  const rel = relative(root, cwd).split("\\").join("/");
  const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"];
  if (rel) args.push("--", `:(literal)${rel}`);
  let result: GitResult;
  try {
    result = await sources.repoGit(args);
  } catch (error) {
    return { unavailable: `git cannot list its files: ${(error as Error).message}` };
  }
  if (!result.ok) return { unavailable: "git cannot list its files" };
  const prefix = rel ? `${rel}/` : "";
  const paths = new Set<string>();
  for (const name of result.stdout.split("\0")) {
    if (name && name.startsWith(prefix)) paths.add(name.slice(prefix.length));
  }
  if (paths.size > MAX_FILES) {
    return { unavailable: `the work tree holds more than ${MAX_FILES} files` };
  }
  return { paths: [...paths] };
}

/** Every file and symlink under `cwd` (symlinked folders not entered), up to `MAX_FILES`. */
async function folderFiles(cwd: string): Promise<Listing> {
  const paths: string[] = [];
  const pending = [""];
  while (pending.length) {
    const dir = pending.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir ? `${cwd}/${dir}` : cwd));
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(path);
      } else if (entry.isFile || entry.isSymlink) {
        paths.push(path);
      }
      if (paths.length > MAX_FILES) {
        return {
          unavailable: `it is not a git repository and holds more than ${MAX_FILES} files`,
        };
      }
    }
  }
  return { paths };
}
