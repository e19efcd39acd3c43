/**
 * The chain a session runs every tool call through, in order: approval, then the harness's
 * reminders, then the loop guard. User hooks and MCP approval modes join it here.
 */
import type { ToolHooks } from "../loop/tool_hooks.ts";
import { type ApprovalCheck, approvalLink } from "./approval.ts";
import { loopGuardLink } from "./loop_guard.ts";
import { remindersLink } from "./reminders.ts";

/** Options of `sessionToolHooks()`. */
export interface SessionHookOptions {
  /** The session's approval check (`SessionSandbox.beforeToolCall`). */
  approve: ApprovalCheck;
  /** `loop_guard_repeats`; 0 turns the loop guard off; default 3. */
  loopGuardRepeats?: number;
}

/** The session's links, made anew for each turn (a sub-agent's too) as `LoopDeps.toolHooks`. */
export function sessionToolHooks(opts: SessionHookOptions): ToolHooks {
  return (turn) => [
    approvalLink(opts.approve),
    remindersLink(turn),
    loopGuardLink(turn, opts.loopGuardRepeats),
  ];
}
