/**
 * The link that keeps a read-only sub-agent (Codex `sandbox_mode = "read-only"`, a `plan`
 * permission mode) from changing anything: tools that change files are refused, and commands
 * run only when they are known to only read. It comes before the session's own links, so it
 * only ever narrows what the parent's sandbox and approvals allow.
 */
import { COMMAND_CAPABILITIES, commandOf } from "../../approval/policy.ts";
import { isKnownSafeShellCall } from "../../approval/known_safe.ts";
import type { ToolHook, ToolHooks } from "../../loop/tool_hooks.ts";

/** `base` with the read-only link of sub-agent `name` first. */
export function readOnlyHooks(base: ToolHooks, name: string): ToolHooks {
  const link: ToolHook = {
    name: "read-only sub-agent",
    before: (call) => {
      const reason = refusal(call, name);
      return Promise.resolve(reason === undefined ? undefined : { action: "deny", reason });
    },
  };
  return (turn) => [link, ...base(turn)];
}

function refusal(
  call: { name: string; capability: string; mutates: boolean; input: unknown },
  name: string,
): string | undefined {
  if (COMMAND_CAPABILITIES.has(call.capability)) {
    const command = commandOf(call.input);
    if (!command.escalated && isKnownSafeShellCall(command)) return undefined;
    return `The sub-agent ${name} is read-only: only commands known to only read can run`;
  }
  if (!call.mutates) return undefined;
  return `The sub-agent ${name} is read-only: ${call.name} can change files`;
}
