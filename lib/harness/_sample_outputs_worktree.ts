/**
 * Representative outputs of the monitor and worktree capabilities (lib/tools/shell_monitor.ts,
 * lib/tools/worktree_tools.ts), spread into `SAMPLE_OUTPUTS` (`_sample_outputs.ts`).
 */
import type { ShellMonitorOutput } from "../tools/shell_monitor.ts";
import type { WorktreeEnterOutput, WorktreeExitOutput } from "../tools/worktree_tools.ts";

const WATCHED = {
  id: "bash_1",
  pid: 4242,
  command: "npm run dev",
  description: "dev server",
  status: "running",
  exitCode: null,
  outputPath: "/tmp/interpreter/bash_1.log",
} as const;

const WORKTREE = {
  name: "fix-login",
  path: "/home/me/.openinterpreter/worktrees/app-1a2b3c4d/fix-login",
  branch: "worktree-fix-login",
};

/** Sample outputs by capability id. */
export const WORKTREE_MONITOR_SAMPLES: Record<string, unknown[]> = {
  "shell.monitor": [
    {
      ...WATCHED,
      matched: true,
      line: "ready on :3000",
      reason: "matched",
      ended: false,
      timedOut: false,
      lines: "building",
      timeoutMs: 300000,
    } satisfies ShellMonitorOutput,
    {
      ...WATCHED,
      matched: false,
      line: "",
      reason: "timeout",
      ended: false,
      timedOut: true,
      lines: "",
      timeoutMs: 1000,
    } satisfies ShellMonitorOutput,
  ],
  "worktree.enter": [{ ...WORKTREE, created: true } satisfies WorktreeEnterOutput],
  "worktree.exit": [
    {
      ...WORKTREE,
      action: "remove",
      originalCwd: "/work/app",
      removed: true,
      discardedFiles: 0,
      discardedCommits: 0,
    } satisfies WorktreeExitOutput,
  ],
};
