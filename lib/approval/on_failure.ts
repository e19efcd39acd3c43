/**
 * The `on-failure` policy's question after a command failed in the sandbox in a way the sandbox
 * may have caused: rerun it unsandboxed once the user approves, and otherwise tell the model
 * why it was not rerun (the answer's text is added to the command's output).
 */
import type { ApprovalQuestion, ApprovalReply } from "./hook.ts";
import { visible } from "./visible.ts";

/** Options of `onFailureRerun()`. */
export interface OnFailureOptions {
  /** Asks the user; absent when no one can answer (exec without a terminal). */
  ask?: (question: ApprovalQuestion) => Promise<ApprovalReply>;
  /** Told when the rerun is refused for want of a terminal, for stderr. */
  onDenied?: (message: string) => void;
}

/** True reruns the command unsandboxed; a string says why it was not rerun. */
export type RerunAnswer = true | string;

/** Builds the sandbox's `retryUnsandboxed` callback for the on-failure policy. */
export function onFailureRerun(
  opts: OnFailureOptions,
): (command: string, output: string) => Promise<RerunAnswer> {
  return async (command, output) => {
    if (!opts.ask) {
      opts.onDenied?.(`Not rerunning "${command}" unsandboxed: no terminal to ask`);
      return "The command failed in the sandbox; running it outside the sandbox needs the " +
        "user's approval, which no one can give here (there is no terminal), so it was not " +
        "rerun\nTell the user what failed and why it needs to run outside the sandbox; they " +
        "can rerun with a different --ask-for-approval or --sandbox";
    }
    const last = output.trim().split("\n").pop() ?? "";
    const reply = await opts.ask({
      capability: "shell.run",
      subject: visible(command),
      reason: `it failed in the sandbox: ${visible(last)}`,
      unsandboxed: true,
    });
    const { answer, note } = typeof reply === "string" ? { answer: reply, note: undefined } : reply;
    if (answer !== "deny") return true;
    return "The command failed in the sandbox, and the user refused to rerun it outside the " +
      `sandbox${note ? `, saying: ${note}` : ""}`;
  };
}
