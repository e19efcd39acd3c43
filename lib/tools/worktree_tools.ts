/**
 * `worktree.enter` and `worktree.exit`: the session works in a git worktree of its repository and
 * comes back. The session does the work (`ToolContext.worktrees`, lib/session/worktree_control.ts):
 * git through the safe runner, the working directory and writable roots through `configure()`.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import type { WorktreeControl } from "./types.ts";

/** Input of `worktree.enter`: Claude `EnterWorktree` {name, path}, Qwen `enter_worktree` {name}. */
const worktreeEnterInput = z.object({
  name: z.string().optional()
    .describe("Name of a new worktree (letters, digits, . _ - in /-separated segments)"),
  path: z.string().optional().describe("Path of an existing worktree of the repository to enter"),
});

/** Result of `worktree.enter`. */
export interface WorktreeEnterOutput {
  name: string;
  path: string;
  branch: string;
  /** False when an existing worktree was entered. */
  created: boolean;
}

/** Creates (or finds) the worktree and moves the session into it. */
export const worktreeEnter = defineCapability({
  id: "worktree.enter",
  input: worktreeEnterInput,
  mutates: true,
  async run(input, ctx): Promise<WorktreeEnterOutput> {
    const wt = await controlOf(ctx).enter({ name: input.name, path: input.path });
    return { name: wt.name, path: wt.path, branch: wt.branch, created: wt.created };
  },
});

/** Input of `worktree.exit`: Claude `ExitWorktree`, Qwen `exit_worktree`. */
const worktreeExitInput = z.object({
  name: z.string().optional().describe(
    "Name of the worktree being left, when the tool asks for it",
  ),
  action: z.enum(["keep", "remove"]).describe(
    "keep leaves it on disk; remove deletes it and its branch",
  ),
  discard_changes: z.boolean().optional()
    .describe("Remove it even with uncommitted files or commits of its own"),
});

/** Result of `worktree.exit`. */
export interface WorktreeExitOutput {
  action: "keep" | "remove";
  name: string;
  path: string;
  branch: string;
  /** The working directory the session is back in. */
  originalCwd: string;
  removed: boolean;
  discardedFiles: number;
  discardedCommits: number;
}

/** Moves the session back to its first working directory, keeping or removing the worktree. */
export const worktreeExit = defineCapability({
  id: "worktree.exit",
  input: worktreeExitInput,
  mutates: true,
  async run(input, ctx): Promise<WorktreeExitOutput> {
    const out = await controlOf(ctx).exit({
      name: input.name,
      action: input.action,
      discardChanges: input.discard_changes,
    });
    return { ...out, action: input.action, removed: input.action === "remove" };
  },
});

function controlOf(ctx: ToolContext): WorktreeControl {
  if (ctx.worktrees) return ctx.worktrees;
  throw new ToolError(
    "Worktrees are not available in this session",
    "Work in the current directory instead",
  );
}
