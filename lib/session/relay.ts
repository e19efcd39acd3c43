/**
 * Carries what the agent asks the user to the front end (`SessionIO.approve` and `askUser`),
 * with the tool call's id and the turn's abort signal, and reports each approval as events and
 * in the session file; one withdrawn by the turn's cancel is reported too (`approval_withdrawn`).
 * An approval question reaches the front end with its view (tool_views/approval_view.ts).
 */
import { type ApprovalAsk, type ApprovalReply, replyOf } from "../approval/hook.ts";
import type { AskUser } from "../tools/ask_user.ts";
import type { StartupIO } from "./agent_session.ts";
import { approvalEvent, type SessionRecorder } from "./recorder.ts";
import { approvalView } from "./tool_views/approval_view.ts";
import type { SessionIO } from "./types.ts";

/** An answer to an approval question before the user is asked; undefined leaves it to the user. */
export type FirstAnswer = (
  req: ApprovalAsk,
  signal: AbortSignal,
) => Promise<ApprovalReply | undefined>;

/** What waits for the user, as Claude Code's Notification hook tells it. */
export interface Waiting {
  type: "permission_prompt" | "elicitation_dialog";
  /** The tool an approval is about, as hooks name it; absent for a question. */
  tool?: string;
  /** The tool call's capability, which names the tool when no hook name does. */
  capability?: string;
}

/** The approval and question seam between the agent and one front end. */
export class SessionRelay {
  readonly #io: SessionIO;
  /** Set once the session file is open; no approval can be asked before that. */
  #recorder: SessionRecorder | undefined;
  /** Answers a question before the user is asked (PermissionRequest hooks); undefined: ask. */
  #first: FirstAnswer | undefined;
  /** Told when a question reaches the user (Notification hooks). */
  #waiting: ((waiting: Waiting) => void) | undefined;

  /** The session's working directory now, which an approval question's paths resolve against. */
  #cwd: () => string;

  constructor(io: SessionIO, cwd: string) {
    this.#io = io;
    this.#cwd = () => cwd;
  }

  /** From now on approval views resolve paths against `cwd()`, the directory in use. */
  viewsIn(cwd: () => string): void {
    this.#cwd = cwd;
  }

  /** What start-up (the sandbox and its approval hook) reports and asks through. */
  startupIO(): StartupIO {
    const io = this.#io;
    return {
      warn: (message) => io.onEvent({ type: "warning", message }),
      ask: io.approve ? (req, signal) => this.#approve(req, signal) : undefined,
      answersQuestions: io.askUser !== undefined,
      answerUnasked: io.approve ? undefined : (req, signal) => this.#answerUnasked(req, signal),
      onDenied: (reason, callId) => io.onEvent({ type: "tool_denied", callId, reason }),
    };
  }

  /** Approvals from now on are also written to `recorder`. */
  recordTo(recorder: SessionRecorder): void {
    this.#recorder = recorder;
  }

  /** From now on `first` may answer an approval question before the user is asked. */
  answerFirst(first: FirstAnswer): void {
    this.#first = first;
  }

  /** From now on `tell` hears of each question the user is asked. */
  whenWaiting(tell: (waiting: Waiting) => void): void {
    this.#waiting = tell;
  }

  /** `TurnContext.askUser`; undefined when no one can answer. */
  askUser(): AskUser | undefined {
    const io = this.#io;
    if (!io.askUser) return undefined;
    return (questions, meta, signal) => {
      this.#waiting?.({ type: "elicitation_dialog" });
      return this.#whileAsked(meta.callId, signal, () => io.askUser!(questions, meta, signal));
    };
  }

  /** Where no one can be asked: the PermissionRequest hooks' answer, recorded; else undefined. */
  async #answerUnasked(req: ApprovalAsk, signal: AbortSignal): Promise<ApprovalReply | undefined> {
    const first = await this.#first?.(req, signal);
    if (first === undefined) return undefined;
    const { answer, note } = replyOf(first);
    this.#recorder?.append(approvalEvent(req.callId, answer, note));
    return first;
  }

  async #approve(req: ApprovalAsk, signal: AbortSignal): Promise<ApprovalReply> {
    const { callId, question } = req;
    const first = await this.#first?.(req, signal);
    if (first !== undefined) {
      const { answer, note } = replyOf(first);
      this.#recorder?.append(approvalEvent(callId, answer, note));
      return first;
    }
    this.#io.onEvent({ type: "approval_requested", callId, question });
    this.#waiting?.({ type: "permission_prompt", tool: req.tool, capability: question.capability });
    const reply = await this.#whileAsked(
      callId,
      signal,
      () => this.#io.approve!({ ...req, view: approvalView(req, this.#cwd()) }, signal),
      () => this.#recorder?.append({ type: "approval", callId, decision: "aborted" }),
    );
    // A withdrawn question's late answer counts for nothing, so it is neither shown nor saved.
    if (signal.aborted) return reply;
    const { answer, note } = replyOf(reply);
    this.#io.onEvent({ type: "approval_resolved", callId, answer, ...(note ? { note } : {}) });
    this.#recorder?.append(approvalEvent(callId, answer, note));
    return reply;
  }

  /**
   * Runs `ask`; when `signal` fires before it settles, reports the question withdrawn (once),
   * even if the front end never answers.
   */
  async #whileAsked<T>(
    callId: string,
    signal: AbortSignal,
    ask: () => Promise<T>,
    onWithdrawn?: () => void,
  ): Promise<T> {
    let pending = true;
    const withdraw = () => {
      if (!pending) return;
      pending = false;
      this.#io.onEvent({ type: "approval_withdrawn", callId });
      onWithdrawn?.();
    };
    signal.addEventListener("abort", withdraw, { once: true });
    if (signal.aborted) withdraw();
    try {
      return await ask();
    } finally {
      pending = false;
      signal.removeEventListener("abort", withdraw);
    }
  }
}
