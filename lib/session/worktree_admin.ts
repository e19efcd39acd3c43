/**
 * `interpreter worktree list` and `remove`: the worktrees sessions made (`--worktree`, the
 * worktree tools) for the repository a folder is in, with their state, and their removal.
 * Git's work is lib/workspace/worktree.ts's; only worktrees under `<home>/worktrees/` are
 * shown and removed here (others are the user's own, for `git worktree`).
 */
import { join } from "node:path";
import { configHome } from "../config/load.ts";
import { ToolError, UserError } from "../errors.ts";
import {
  listedWorktrees,
  removeWorktree,
  repositoryAt,
  type Worktree,
  worktreeBranch,
  worktreeChanges,
  worktreePath,
  worktreesFolder,
} from "../workspace/worktree.ts";
import { resumableSessions } from "./resume.ts";
import { worktreeAt } from "./worktree_start.ts";

/** One row of `worktree list`. */
export interface WorktreeRow {
  name: string;
  branch: string;
  path: string;
  /** Uncommitted files (modified, added, untracked). */
  changedFiles: string[];
  /** Commits on its branch that the main repository's HEAD does not have. */
  commits: number;
  /** The newest saved session made in it. */
  session?: string;
}

/** Throws a worktree module's `ToolError` as the `UserError` a command shows, others as they are. */
function asUserError(error: unknown): never {
  throw error instanceof ToolError ? new UserError(error.message, { hint: error.hint }) : error;
}

/** The facts every command works with: environment, interpreter home, repository. */
async function contextOf(cwd: string, env: Record<string, string>) {
  const home = configHome(env, cwd);
  const repo = await repositoryAt(cwd).catch(asUserError);
  return { git: { env, home }, home, repo };
}

/** The main repository's HEAD as a revision: its branch, or its commit when detached. */
async function mainHead(commonDir: string): Promise<string> {
  const head = (await Deno.readTextFile(join(commonDir, "HEAD")).catch(() => "")).trim();
  return /^ref: (.+)$/.exec(head)?.[1] ?? (head || "HEAD");
}

/** The session worktrees of the repository `cwd` is in, with their state. */
export async function worktreeRows(
  cwd: string,
  env: Record<string, string>,
): Promise<{ repoRoot: string; folder: string; rows: WorktreeRow[] }> {
  const { git, home, repo } = await contextOf(cwd, env);
  const folder = await worktreesFolder(home, repo.repoRoot);
  const base = await mainHead(repo.commonDir);
  const paths = (await listedWorktrees(git, repo.repoRoot)).filter((p) => p.startsWith(folder));
  const rows: WorktreeRow[] = [];
  for (const path of paths) {
    const wt = await worktreeAt(home, path);
    if (!wt) continue;
    const changes = await worktreeChanges(git, { ...wt, base });
    const [session] = await resumableSessions(home, { cwd: path, limit: 1 });
    rows.push({
      name: wt.name,
      branch: wt.branch,
      path,
      changedFiles: changes.files,
      commits: changes.commits,
      ...(session ? { session: session.id } : {}),
    });
  }
  return { repoRoot: repo.repoRoot, folder, rows };
}

/**
 * Removes session worktree `name` of the repository `cwd` is in, and its branch. Refused, naming
 * what would be lost, when it has uncommitted files or commits of its own, unless `force`.
 */
export async function removeSessionWorktree(
  cwd: string,
  env: Record<string, string>,
  name: string,
  force: boolean,
): Promise<Worktree> {
  const { git, home, repo } = await contextOf(cwd, env);
  const path = await worktreePath(home, repo.repoRoot, name).catch(asUserError);
  const found = (await listedWorktrees(git, repo.repoRoot)).includes(path)
    ? await worktreeAt(home, path)
    : undefined;
  if (!found) {
    throw new UserError(`No worktree named "${name}" in the repository at ${repo.repoRoot}`, {
      hint: 'Run "interpreter worktree list" to see their names',
    });
  }
  const wt = { ...found, base: await mainHead(repo.commonDir) };
  const changes = await worktreeChanges(git, wt);
  if ((changes.files.length || changes.commits) && !force) {
    const shown = changes.files.slice(0, 20).join(", ");
    const more = changes.files.length > 20 ? `, and ${changes.files.length - 20} more` : "";
    throw new UserError(
      `Worktree ${name} has work that would be lost: ` +
        `${changes.files.length} uncommitted file(s)${shown ? ` (${shown}${more})` : ""} and ` +
        `${changes.commits} commit(s) that ${wt.base.replace(/^refs\/heads\//, "")} does not have`,
      {
        hint: `Commit or merge it first (cd ${path}), or remove it anyway with ` +
          `"interpreter worktree remove ${name} --force"`,
      },
    );
  }
  // The branch removed with it is the one the worktree was made with.
  const made = { ...wt, branch: worktreeBranch(name) };
  await removeWorktree(git, made, force).catch(asUserError);
  return made;
}
