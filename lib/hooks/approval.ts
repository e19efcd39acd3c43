/**
 * Approval as a link of the tool-hook chain: the session's approval check (policy, sandbox,
 * the user's answer) decides each call before it runs. This link is the only maker of a
 * `SandboxGrant`: a call leaves the sandbox only when the check granted `unsandboxed`.
 */
import type { ApprovalCheck } from "../approval/hook.ts";
import { SandboxGrant, type ToolHook } from "../loop/tool_hooks.ts";

export type { ApprovalCheck };

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
