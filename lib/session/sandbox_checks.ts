/**
 * What the sandbox available here lets a session do, checked the same way for the start-up values
 * and for every change of sandbox mode or approval policy (`openSessionSandbox()` and
 * `check()` in sandbox_setup.ts): the refusals, and the warnings a session starts with.
 */
import type { ApprovalPolicy } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import type { SandboxMode, SandboxStatus } from "../../sandbox/command_sandbox.ts";

/** Whether commands run confined, or need no confinement (danger-full-access). */
function confined(status: SandboxStatus): boolean {
  return status.mode === "danger-full-access" || status.enforced;
}

/** Why the sandbox cannot be enforced, for a sentence: `bubblewrap is not installed`. */
function causeOf(status: SandboxStatus): string {
  const message = status.problem?.message ?? "the command sandbox is unavailable";
  return message.replace(/^Command sandbox unavailable: /, "");
}

/**
 * Why a session cannot take sandbox mode and policy `next` in a sandbox with `status`, or
 * undefined: the one check of the start-up values and of every change. A sandbox that
 * cannot be enforced is refused where the session requires one and no one can approve the
 * commands it leaves unconfined, and on a change away from one that could be (`from`); otherwise
 * it is taken, with a warning at start-up.
 */
export function sandboxRefusal(
  status: SandboxStatus,
  next: { mode: SandboxMode; policy: ApprovalPolicy },
  facts: { ask?: unknown; requireSandbox?: boolean; from?: SandboxStatus },
): UserError | undefined {
  if (confined(status)) return undefined;
  if (facts.from && confined(facts.from)) {
    return new UserError(
      `Cannot change to sandbox mode ${next.mode}: it is not available here because ` +
        causeOf(status),
      { hint: status.problem?.hint ?? "Choose another sandbox mode" },
    );
  }
  const canAsk = facts.ask !== undefined && next.policy !== "never";
  return facts.requireSandbox && !canAsk ? unconfinedRefusal(status, next.policy) : undefined;
}

/** The error of a session that could run no command: no sandbox, and no one to approve. */
function unconfinedRefusal(status: SandboxStatus, policy: string): UserError {
  const who = policy === "never" ? "approval_policy is never" : "no one is here to approve them";
  const fix = status.problem?.hint ?? "Restart with --sandbox danger-full-access";
  return new UserError(
    `Cannot run commands: the command sandbox is unavailable because ${causeOf(status)}, and ` +
      `${who}, so every command that is not known to be read-only would be refused`,
    { hint: fix.replace(/; or approve each command to run it unsandboxed$/, ""), exitCode: 2 },
  );
}

/** The `warning:` lines of a session: leftovers removed, and what the sandbox cannot enforce. */
export function sandboxWarnings(facts: {
  status: SandboxStatus;
  policy: string;
  /** Someone can approve a command to run without the sandbox. */
  canAsk: boolean;
  leftovers: string[];
  fullAccessLabel?: string;
}): string[] {
  const { status, leftovers, fullAccessLabel } = facts;
  const warnings: string[] = [];
  if (leftovers.length) {
    warnings.push(
      `Removed ${leftovers.length} temporary file(s) an interrupted session left: ` +
        leftovers.map((p) => `"${p}"`).join(", "),
    );
  }
  if (status.problem && !confined(status)) {
    const then = facts.canAsk
      ? "each command that is not known to be read-only asks for your approval, then runs " +
        "unsandboxed"
      : "commands that are not known to be read-only will not run";
    warnings.push(
      `The command sandbox is unavailable because ${causeOf(status)}, so ${then}.\n` +
        `hint: ${status.problem.hint}`,
    );
  } else if (status.problem) {
    warnings.push(`${status.problem.message}\nhint: ${status.problem.hint}`);
  }
  if (status.mode !== "danger-full-access" && !(status.kind === "bwrap" && status.enforced)) {
    warnings.push("File tools run without an OS sandbox: symlink escapes are not blocked");
  }
  if (status.mode === "danger-full-access") {
    const unasked = facts.policy === "never" ? " and without asking for approval" : "";
    warnings.push(
      fullAccessLabel
        ? `${fullAccessLabel}: commands run without a sandbox${unasked}`
        : "sandbox_mode is danger-full-access: commands run without a sandbox",
    );
  }
  return warnings;
}
