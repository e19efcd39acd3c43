/**
 * Which tool calls run, which need the user's approval and which are refused, from
 * `approval_policy` and the session's sandbox (interfaces.md §6.4, §7). Pure: the hook in
 * `hook.ts` asks the user and applies the answer.
 */
import { isKnownSafeCommand } from "./known_safe.ts";

/** Values of `approval_policy`. */
export type ApprovalPolicy = "untrusted" | "on-failure" | "on-request" | "never";

/** What the approval policy needs to know about the session's sandbox. */
export interface SandboxFacts {
  mode: "read-only" | "workspace-write" | "danger-full-access";
  /** False when a sandboxed mode cannot be enforced here (bwrap broken, Windows). */
  enforced: boolean;
  /** Why it cannot be enforced, and the fix. */
  problem?: { message: string; hint: string };
}

/** One resolved tool call. */
export interface ApprovalRequest {
  capability: string;
  /** The capability's `mutates` flag. */
  mutates: boolean;
  input: unknown;
  sandbox: SandboxFacts;
}

/**
 * The verdict. `unsandboxed` means the call, once allowed or approved, runs outside the OS
 * sandbox; `reason` is shown to the user (ask) or the model (deny).
 */
export type ApprovalDecision =
  | { decision: "allow"; unsandboxed: boolean }
  | { decision: "ask"; unsandboxed: boolean; reason: string }
  | { decision: "deny"; reason: string; hint?: string };

/** Capabilities that run a command line, which the OS sandbox confines (foreground or background). */
export const COMMAND_CAPABILITIES: ReadonlySet<string> = new Set(["shell.run", "shell.start"]);

/** Decides whether a call runs, needs approval, or is refused. */
export function approvalDecision(
  policy: ApprovalPolicy,
  req: ApprovalRequest,
): ApprovalDecision {
  if (COMMAND_CAPABILITIES.has(req.capability)) return commandDecision(policy, req);
  if (!req.mutates) return { decision: "allow", unsandboxed: false };
  if (req.sandbox.mode === "read-only") {
    return {
      decision: "deny",
      reason: `The session sandbox is read-only: ${req.capability} cannot change files`,
      hint: "Tell the user; they can restart with --sandbox workspace-write to allow edits",
    };
  }
  if (policy === "untrusted") {
    return { decision: "ask", unsandboxed: false, reason: "approval_policy is untrusted" };
  }
  return { decision: "allow", unsandboxed: false };
}

/** The command line of a command capability's input, and whether it asks to leave the sandbox. */
export function commandOf(input: unknown): { command: string; escalated: boolean } {
  const o = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  return {
    command: typeof o.command === "string" ? o.command : "",
    escalated: o.escalated === true || o.sandbox_permissions === "require_escalated",
  };
}

function commandDecision(policy: ApprovalPolicy, req: ApprovalRequest): ApprovalDecision {
  const { command, escalated } = commandOf(req.input);
  const full = req.sandbox.mode === "danger-full-access";
  if (escalated && !full) {
    if (policy === "never") {
      return {
        decision: "deny",
        reason: "The command asks to run outside the sandbox, but approval_policy is never",
        hint: "Run it inside the sandbox, or find another way",
      };
    }
    return { decision: "ask", unsandboxed: true, reason: "it asks to run outside the sandbox" };
  }
  const sandboxed = full || req.sandbox.enforced;
  if (isKnownSafeCommand(command)) return { decision: "allow", unsandboxed: !sandboxed };
  if (!sandboxed) {
    const problem = req.sandbox.problem?.message ?? "the command sandbox is unavailable";
    if (policy === "never") {
      return {
        decision: "deny",
        reason: `${problem}, and approval_policy is never: the command was not run`,
        hint: req.sandbox.problem?.hint,
      };
    }
    return { decision: "ask", unsandboxed: true, reason: `${problem}; it would run unsandboxed` };
  }
  if (policy === "untrusted") {
    return {
      decision: "ask",
      unsandboxed: full,
      reason: "approval_policy is untrusted and the command is not known to be safe",
    };
  }
  return { decision: "allow", unsandboxed: full };
}
