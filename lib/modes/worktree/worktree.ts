// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter worktree list` and `interpreter worktree remove NAME [--force]`: the worktrees
 * sessions work in (`--worktree`, the worktree tools), listed with their state or removed.
 */
import { terminalText } from "../../approval/visible.ts";
import { resolveWorkdir } from "../../session/workdir.ts";
import { removeSessionWorktree, worktreeRows } from "../../session/worktree_admin.ts";
import type { WorktreeArgs } from "./worktree_args.ts";

/** Runs one `worktree` command; the exit code. */
export async function runWorktree(args: WorktreeArgs): Promise<number> {
  const env = Deno.env.toObject();
  const cwd = await resolveWorkdir(args.cd);
  if (args.command === "remove") {
    const wt = await removeSessionWorktree(cwd, env, args.name, args.force);
    console.log(terminalText(`Removed worktree ${wt.name} (${wt.path}) and branch ${wt.branch}`));
    return 0;
  }
  const { repoRoot, folder, rows } = await worktreeRows(cwd, env);
  if (args.json) {
    console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (rows.length === 0) {
    console.log(terminalText(`No session worktrees for ${repoRoot} (they go in ${folder})`));
    console.log('Start one with "interpreter --worktree=NAME" or "interpreter exec --worktree …"');
    return 0;
  }
  for (const row of rows) {
    const state = row.changedFiles.length || row.commits
      ? `dirty: ${row.changedFiles.length} uncommitted file(s), ${row.commits} commit(s) of its own`
      : "clean";
    console.log(terminalText(`${row.name}  branch ${row.branch || "detached"}  ${state}`));
    console.log(terminalText(`  ${row.path}`));
    if (row.session) console.log(terminalText(`  session ${row.session}`));
  }
  return 0;
}
