/**
 * The session's side of the worktree tools: which worktree it works in, and the switch into it
 * and back, made through `configure()` (the working directory and writable roots are settings).
 * Git work is lib/workspace/worktree.ts's. The state lives as long as the session's resources,
 * so it survives from turn to turn; the first working directory and roots are where `exit`
 * returns.
 */
import { basename, join, resolve } from "node:path";
import { ToolError } from "../errors.ts";
import type { WorktreeControl, WorktreeInfo } from "../tools/types.ts";
import { resourceKey, type Resources } from "../tools/resources.ts";
import {
  createWorktree,
  listedWorktrees,
  mainRepositoryOf,
  openWorktree,
  randomWorktreeName,
  removeWorktree,
  repositoryAt,
  type Worktree,
  worktreeChanges,
  type WorktreeGit,
  worktreeWritableRoots,
} from "../workspace/worktree.ts";
import type { SessionSettings, SettingsUpdate } from "./settings_types.ts";

/** Where the session is: its first directory and roots, and the worktree it is in now. */
interface WorktreeState {
  worktree?: Worktree & { created: boolean };
  origin?: { cwd: string; roots: string[] };
}

const WORKTREE_STATE = resourceKey<WorktreeState>("session.worktree");

/** What the control works with: the session's settings, its configure() and git's facts. */
export interface WorktreeSession {
  resources: Resources;
  settings(): { cwd: string; writableRoots: readonly string[] };
  configure(update: SettingsUpdate): Promise<SessionSettings>;
  git: WorktreeGit;
}

/** The session's WorktreeControl (see the module comment). */
export function worktreeControl(s: WorktreeSession): WorktreeControl {
  let state = s.resources.get(WORKTREE_STATE) as WorktreeState | undefined;
  if (!state) s.resources.set(WORKTREE_STATE, state = {});
  const st = state;
  return {
    async enter(req) {
      if (st.worktree) {
        throw new ToolError(
          `The session is already in worktree ${st.worktree.name} (${st.worktree.path})`,
          "Leave it first (keep or remove it), then enter another",
        );
      }
      if (req.name !== undefined && req.path !== undefined) {
        throw new ToolError("Give name or path, not both", "Name a new worktree, or give a path");
      }
      const now = s.settings();
      const repo = await repositoryAt(now.cwd);
      const wt = req.path !== undefined
        ? { ...await existingWorktree(s, repo.repoRoot, req.path), created: false }
        : { ...await createWorktree(s.git, repo, req.name ?? randomWorktreeName()), created: true };
      const extra = now.writableRoots.filter((root) => root !== now.cwd);
      await s.configure({ cwd: wt.path, writableRoots: worktreeWritableRoots(wt, extra) });
      st.origin = { cwd: now.cwd, roots: [...now.writableRoots] };
      st.worktree = wt;
      return { ...infoOf(wt), created: wt.created };
    },
    async exit(req) {
      const wt = st.worktree;
      if (!wt || !st.origin) {
        throw new ToolError("The session is not in a worktree", "Nothing to leave");
      }
      if (req.name !== undefined && req.name !== wt.name) {
        throw new ToolError(
          `The session is in worktree ${wt.name}, not ${req.name}`,
          `Give name "${wt.name}"`,
        );
      }
      const dropped = req.action === "remove"
        ? await removable(s, wt, req.discardChanges === true)
        : { files: [], commits: 0 };
      await s.configure({ cwd: st.origin.cwd, writableRoots: st.origin.roots });
      const originalCwd = st.origin.cwd;
      st.worktree = undefined;
      if (req.action === "remove") await removeWorktree(s.git, wt, req.discardChanges === true);
      return {
        ...infoOf(wt),
        originalCwd,
        discardedFiles: dropped.files.length,
        discardedCommits: dropped.commits,
      };
    },
  };
}

function infoOf(wt: Worktree): WorktreeInfo {
  return { name: wt.name, path: wt.path, branch: wt.branch };
}

/** The existing worktree at `path`, refused unless it is a linked worktree of `repoRoot`. */
async function existingWorktree(
  s: WorktreeSession,
  repoRoot: string,
  path: string,
): Promise<Worktree> {
  const given = resolve(s.settings().cwd, path);
  const dir = await Deno.realPath(given).catch(() => given);
  const listed = await listedWorktrees(s.git, repoRoot);
  if (await mainRepositoryOf(dir) !== repoRoot || dir === repoRoot || !listed.includes(dir)) {
    throw new ToolError(
      `${dir} is not a worktree of the repository at ${repoRoot}`,
      "Give a path that git worktree list shows, or a name to create a new worktree",
    );
  }
  const { commonDir } = await repositoryAt(repoRoot);
  const wt = await openWorktree({
    name: basename(dir),
    path: dir,
    branch: "",
    base: "",
    repoRoot,
    commonDir,
  });
  // Its branch, from its HEAD file ("ref: refs/heads/NAME"); empty when detached.
  const head = await Deno.readTextFile(join(wt.adminDir, "HEAD")).catch(() => "");
  return { ...wt, branch: /^ref: refs\/heads\/(.+)$/m.exec(head)?.[1] ?? "" };
}

/**
 * What removing `wt` would throw away; refused when there is something and `discard` is not set
 * (or when the session did not create it).
 */
async function removable(
  s: WorktreeSession,
  wt: Worktree & { created: boolean },
  discard: boolean,
): Promise<{ files: string[]; commits: number }> {
  if (!wt.created) {
    throw new ToolError(
      `Worktree ${wt.path} was not created by this session, so it is not removed here`,
      'Leave it with action "keep"',
    );
  }
  const changes = await worktreeChanges(s.git, wt);
  if ((changes.files.length || changes.commits) && !discard) {
    const files = changes.files.slice(0, 20).join(", ");
    throw new ToolError(
      `Worktree ${wt.name} has ${changes.files.length} uncommitted file(s)` +
        (files ? ` (${files})` : "") + ` and ${changes.commits} commit(s) of its own`,
      "Ask the user; remove it with discard_changes true only once they agree, or keep it",
    );
  }
  return changes;
}
