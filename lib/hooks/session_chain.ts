/**
 * The chain a session runs every tool call through, in order: the user's PreToolUse and
 * PostToolUse hooks (before approval, so that approval decides on the input a hook rewrote),
 * approval (with the MCP servers' approval modes), the harness's reminders, the loop guard.
 */
import type { McpServerEntry } from "../config/schema.ts";
import type { HookTurn, ToolHook, ToolHooks } from "../loop/tool_hooks.ts";
import { type ApprovalCheck, approvalLink } from "./approval.ts";
import { withMcpApprovalModes } from "./mcp_approval.ts";
import { type LoopGuardLimits, loopGuardLink } from "./loop_guard.ts";
import { remindersLink } from "./reminders_link.ts";

/** Options of `sessionToolHooks()`. */
export interface SessionHookOptions {
  /** The session's approval check (`SessionSandbox.beforeToolCall`). */
  approve: ApprovalCheck;
  /** The loop guard's thresholds (`loopGuardLimits()` of the config); defaults when left out. */
  loopGuard?: Partial<LoopGuardLimits>;
  /** `[mcp_servers]`: the approval modes of their tools decide before `approve` does. */
  mcpServers?: Record<string, McpServerEntry>;
  /**
   * Permission rules put before the approval check and the MCP servers' approval modes (a deny
   * rule refuses even a tool whose mode is `approve`); see `PermissionGate.wrap()`.
   */
  permissions?: (check: ApprovalCheck) => ApprovalCheck;
  /** The user's hooks as a link for a turn (`userHooksLink()`); none when there are none. */
  userHooks?: (turn: HookTurn) => ToolHook | undefined;
}

/** The session's links, made anew for each turn (a sub-agent's too) as `LoopDeps.toolHooks`. */
export function sessionToolHooks(opts: SessionHookOptions): ToolHooks {
  const modes = opts.mcpServers
    ? withMcpApprovalModes(opts.approve, opts.mcpServers)
    : opts.approve;
  const approve = opts.permissions ? opts.permissions(modes) : modes;
  return (turn) => {
    const user = opts.userHooks?.(turn);
    return [
      ...(user ? [user] : []),
      approvalLink(approve),
      remindersLink(turn),
      loopGuardLink(turn, opts.loopGuard),
    ];
  };
}
