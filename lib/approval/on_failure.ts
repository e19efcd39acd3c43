/**
 * The `on-failure` policy's question after a command failed in the sandbox in a way the sandbox
 * may have caused: rerun it unsandboxed once the user approves, and otherwise tell the model
 * why it was not rerun (the answer's text is added to the command's output).
 */
import { turnCancelled, unlessCancelled } from "../cancel.ts";
import { type ApprovalHookOptions, type Approver, replyOf } from "./hook.ts";
import { visible } from "./visible.ts";

/** Options of `onFailureRerun()`. */
export interface OnFailureOptions {
  /** Asks the user; absent when no one can answer. */
  ask?: Approver;
  /** Where no one can answer: what answers instead (PermissionRequest hooks), if anything. */
  answerUnasked?: ApprovalHookOptions["answerUnasked"];
  /** Told when the rerun is refused because no one can approve it. */
  onDenied?: (message: string, callId?: string) => void;
}

/** True reruns the command unsandboxed; a string says why it was not rerun. */
export type RerunAnswer = true | string;

/**
 * The call the failed command belongs to, and its turn's abort signal: when it fires while the
 * user is asked, the question is withdrawn and the rerun rejects with an `AbortError`.
 */
export interface RerunCall {
  callId?: string;
  /** The tool's name as the model called it; default the capability id. */
  tool?: string;
  signal?: AbortSignal;
}

/** Builds the sandbox's `retryUnsandboxed` callback for the on-failure policy. */
export function onFailureRerun(
  opts: OnFailureOptions,
): (command: string, output: string, call?: RerunCall) => Promise<RerunAnswer> {
  const nobody = (command: string, callId: string | undefined) => {
    opts.onDenied?.(
      `Not rerunning "${command}" unsandboxed: no one is available to approve it`,
      callId,
    );
    return "The command failed in the sandbox; running it outside the sandbox needs the " +
      "user's approval, and no one is available to give it, so it was not rerun\nTell the " +
      "user what failed and why it needs to run outside the sandbox";
  };
  return async (command, output, call = {}) => {
    const ask = opts.ask ?? opts.answerUnasked;
    if (!ask) return nobody(command, call.callId);
    const signal = call.signal ?? new AbortController().signal;
    const cancelled = () =>
      turnCancelled(
        "The turn was cancelled while the user was asked whether to rerun the command outside " +
          "the sandbox; it was not rerun",
      );
    if (signal.aborted) throw cancelled();
    const last = output.trim().split("\n").pop() ?? "";
    const question = {
      capability: "shell.run",
      subject: visible(command),
      reason: `it failed in the sandbox: ${visible(last)}`,
      unsandboxed: true,
    };
    const req = { callId: call.callId ?? "", tool: call.tool ?? "shell.run", question };
    const reply = await unlessCancelled(ask(req, signal), signal, cancelled);
    if (reply === undefined) return nobody(command, call.callId);
    const { answer, note } = replyOf(reply);
    if (answer !== "deny") return true;
    return "The command failed in the sandbox, and the user refused to rerun it outside the " +
      `sandbox${note ? `, saying: ${note}` : ""}`;
  };
}
