/**
 * The loop's `beforeToolCall` hook for an approval policy: allow, ask the user, or refuse. The
 * question itself is injected (a terminal prompt, an ACP request, or nothing when no one can
 * answer, in which case every question is denied with a message saying why). A question is asked
 * under the turn's abort signal: cancelling the turn withdraws it and the call ends as cancelled.
 */
import { turnCancelled, unlessCancelled } from "../cancel.ts";
import {
  type ApprovalDecision,
  approvalDecision,
  type ApprovalPolicy,
  COMMAND_CAPABILITIES,
  commandOf,
  commandSubject,
  fetchUrlOf,
  NETWORK_CAPABILITIES,
  type SandboxFacts,
} from "./policy.ts";
import { visible } from "./visible.ts";

/** What the user is asked. */
export interface ApprovalQuestion {
  capability: string;
  /** The command line, the URL of a web fetch, or the capability's input as JSON for others. */
  subject: string;
  /** Why approval is needed. */
  reason: string;
  /** The model's justification, if it gave one. */
  justification?: string;
  unsandboxed: boolean;
}

/** The user's answer: run this once, run it and anything identical this session, or refuse. */
export type ApprovalAnswer = "once" | "session" | "deny";

/** An answer, or an answer with a note for the model (why the user refused, what to do instead). */
export type ApprovalReply = ApprovalAnswer | { answer: ApprovalAnswer; note?: string };

/** One approval request: the call it is about (its id and tool name as the model wrote them). */
export interface ApprovalAsk {
  callId: string;
  tool: string;
  question: ApprovalQuestion;
}

/**
 * Asks the user (a terminal prompt, an editor's permission request). `signal` fires when the turn
 * is cancelled: the front end then withdraws the request; its answer no longer counts.
 */
export type Approver = (req: ApprovalAsk, signal: AbortSignal) => Promise<ApprovalReply>;

/** Options of `approvalHook()`. */
export interface ApprovalHookOptions {
  policy: ApprovalPolicy;
  sandbox: SandboxFacts;
  /** The `mutates` flag of a capability id. */
  mutates: (capability: string) => boolean;
  /** The environment commands run with; see `ApprovalRequest.env`. */
  env?: Record<string, string>;
  /** Asks the user; absent when no one can answer. */
  ask?: Approver;
  /**
   * Where no one can answer (no `ask`): what answers a question instead (PermissionRequest
   * hooks); undefined from it, or no such function, refuses the call as no one could approve it.
   */
  answerUnasked?: (req: ApprovalAsk, signal: AbortSignal) => Promise<ApprovalReply | undefined>;
  /** Told about every refusal. */
  onDenied?: (message: string, callId: string | undefined) => void;
}

/** The hook's verdict; `unsandboxed` is the only grant that lets a call leave the sandbox. */
export type HookVerdict = { allow: true; unsandboxed?: boolean } | { allow: false; reason: string };

/**
 * The approval step of one tool call. `signal` is the turn's: when it fires while the user is
 * asked, the question is withdrawn and the returned promise rejects with an `AbortError`.
 */
export type ApprovalStep = (
  call: { id?: string; name: string },
  resolved: {
    capability: string;
    input: unknown;
    mutates?: boolean;
    /** Ask the user whatever the policy says, for this reason (an MCP tool in `prompt` mode). */
    askReason?: string;
    /**
     * A permission allow rule (its text) covers the call: a question the policy would ask about
     * a sandboxed run is skipped. It never lets a call leave the sandbox or pass a refusal.
     */
    allowedBy?: string;
  },
  signal?: AbortSignal,
) => Promise<HookVerdict>;

/** Builds the `beforeToolCall` hook for `opts.policy`. */
export function approvalHook(opts: ApprovalHookOptions): ApprovalStep {
  const approvedForSession = new Set<string>();
  return async (call, resolved, signal = new AbortController().signal) => {
    const verdict: ApprovalDecision = resolved.askReason !== undefined
      ? { decision: "ask", unsandboxed: false, reason: resolved.askReason }
      : approvalDecision(opts.policy, {
        capability: resolved.capability,
        // A tool from a tool source says itself whether it changes anything.
        mutates: resolved.mutates ?? opts.mutates(resolved.capability),
        input: resolved.input,
        sandbox: opts.sandbox,
        env: opts.env,
      });
    const deny = (reason: string): HookVerdict => {
      opts.onDenied?.(reason, call.id);
      return { allow: false, reason };
    };
    if (verdict.decision === "deny") {
      return deny([verdict.reason, verdict.hint].filter(Boolean).join("\n"));
    }
    const allowed: HookVerdict = { allow: true, unsandboxed: verdict.unsandboxed };
    if (verdict.decision === "allow") return allowed;
    if (
      resolved.allowedBy !== undefined && resolved.askReason === undefined && !verdict.unsandboxed
    ) {
      return allowed;
    }
    const question = questionFor(resolved, verdict.reason, verdict.unsandboxed);
    const key = `${question.capability}\u0000${question.subject}\u0000${question.unsandboxed}`;
    if (approvedForSession.has(key)) return allowed;
    const cancelled = () =>
      turnCancelled("The turn was cancelled while this call waited for approval; it was not run");
    if (signal.aborted) throw cancelled();
    const req = { callId: call.id ?? "", tool: call.name, question };
    const ask = opts.ask ?? opts.answerUnasked;
    const reply = ask && await unlessCancelled(ask(req, signal), signal, cancelled);
    if (reply === undefined) {
      return deny(
        `No one is available to approve ${call.name} (${verdict.reason}), so it was not run\n` +
          "Tell the user what you wanted to run and why",
      );
    }
    const { answer, note } = replyOf(reply);
    if (answer === "deny") {
      return deny(`The user refused to run ${call.name}${note ? `, saying: ${note}` : ""}`);
    }
    if (answer === "session") approvedForSession.add(key);
    return allowed;
  };
}

/** The answer and the note of a reply. */
export function replyOf(reply: ApprovalReply): { answer: ApprovalAnswer; note?: string } {
  return typeof reply === "string" ? { answer: reply } : reply;
}

function questionFor(
  resolved: { capability: string; input: unknown },
  reason: string,
  unsandboxed: boolean,
): ApprovalQuestion {
  const o = (resolved.input ?? {}) as Record<string, unknown>;
  const subject = COMMAND_CAPABILITIES.has(resolved.capability)
    ? visible(commandSubject(commandOf(resolved.input)))
    : NETWORK_CAPABILITIES.has(resolved.capability)
    ? visible(fetchUrlOf(resolved.input))
    : JSON.stringify(resolved.input);
  const justification = typeof o.justification === "string" ? visible(o.justification) : undefined;
  return { capability: resolved.capability, subject, reason, justification, unsandboxed };
}

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
