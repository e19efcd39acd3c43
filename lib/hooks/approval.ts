/**
 * Approval as a link of the tool-hook chain: the session's approval check (policy, sandbox,
 * the user's answer) decides each call before it runs. This link is the only maker of a
 * `SandboxGrant`: a call leaves the sandbox only when the check granted `unsandboxed`.
 */
import type { HookVerdict } from "../approval/hook.ts";
import { SandboxGrant, type ToolHook } from "../loop/tool_hooks.ts";

/** The session's approval check (`approvalHook()`); `signal` withdraws a pending question. */
export type ApprovalCheck = (
  call: { id: string; name: string },
  resolved: {
    capability: string;
    input: unknown;
    mutates: boolean;
    askReason?: string;
    /** A permission allow rule covers the call (see `ApprovalStep`). */
    allowedBy?: string;
  },
  signal: AbortSignal,
) => Promise<HookVerdict>;

/** The approval link: allow (with a grant when the check says unsandboxed) or deny. */
export function approvalLink(check: ApprovalCheck): ToolHook {
  return {
    name: "approval",
    async before(call, signal) {
      const { capability, input, mutates, askReason } = call;
      const verdict = await check({ id: call.id, name: call.name }, {
        capability,
        input,
        mutates,
        ...(askReason ? { askReason } : {}),
      }, signal);
      if (!verdict.allow) return { action: "deny", reason: verdict.reason };
      return verdict.unsandboxed === true
        ? { action: "allow", grant: new SandboxGrant() }
        : { action: "allow" };
    },
  };
}
