/**
 * The loop's `beforeToolCall` hook for an approval policy: allow, ask the user, or refuse. The
 * question itself is injected (a terminal prompt, an ACP request, or nothing when no one can
 * answer, in which case every question is denied with a message saying why).
 */
import {
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

/** Options of `approvalHook()`. */
export interface ApprovalHookOptions {
  policy: ApprovalPolicy;
  sandbox: SandboxFacts;
  /** The `mutates` flag of a capability id. */
  mutates: (capability: string) => boolean;
  /** The environment commands run with; see `ApprovalRequest.env`. */
  env?: Record<string, string>;
  /** Asks the user about call `callId`; absent when no one can answer (exec without a terminal). */
  ask?: (question: ApprovalQuestion, callId: string | undefined) => Promise<ApprovalReply>;
  /** Told about every refusal. */
  onDenied?: (message: string, callId: string | undefined) => void;
}

/** The hook's verdict; `unsandboxed` is the only grant that lets a call leave the sandbox. */
export type HookVerdict = { allow: true; unsandboxed?: boolean } | { allow: false; reason: string };

/** Builds the `beforeToolCall` hook for `opts.policy`. */
export function approvalHook(
  opts: ApprovalHookOptions,
): (
  call: { id?: string; name: string },
  resolved: { capability: string; input: unknown },
) => Promise<HookVerdict> {
  const approvedForSession = new Set<string>();
  return async (call, resolved) => {
    const verdict = approvalDecision(opts.policy, {
      capability: resolved.capability,
      mutates: opts.mutates(resolved.capability),
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
    const question = questionFor(resolved, verdict.reason, verdict.unsandboxed);
    const key = `${question.capability}\u0000${question.subject}\u0000${question.unsandboxed}`;
    if (approvedForSession.has(key)) return allowed;
    if (!opts.ask) {
      return deny(
        `Approval needed to run ${call.name} (${verdict.reason}), but no one can be asked: ` +
          `there is no terminal. It was not run\nTell the user what you wanted to run and why; ` +
          `they can rerun with a different --ask-for-approval or --sandbox`,
      );
    }
    const reply = await opts.ask(question, call.id);
    const { answer, note } = typeof reply === "string" ? { answer: reply, note: undefined } : reply;
    if (answer === "deny") {
      return deny(`The user refused to run ${call.name}${note ? `, saying: ${note}` : ""}`);
    }
    if (answer === "session") approvedForSession.add(key);
    return allowed;
  };
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
