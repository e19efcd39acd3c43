/**
 * One running `tools/call` of `codex` or `codex-reply`: its `codex/event` notifications, its
 * approval questions to the client (`elicitation/create`), and the signal that stops its turn
 * (the client's cancellation, an `abort` decision, or the server closing).
 */
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  Notification,
  Request,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { ApprovalReply } from "../../approval/hook.ts";
import { formAnswers, questionForm } from "../../session/question_form.ts";
import type { ApprovalRequest, SessionIO } from "../../session/types.ts";
import { decisionOf, elicitationParams } from "./approvals.ts";
import type { CodexEvents, CodexMsg } from "./codex_events.ts";

/**
 * What the SDK hands a request handler: the request's id, signal, and ways to talk back. (A
 * `Server` of the default type parameters sends any method, as `codex/event` needs.)
 */
export type RequestExtra = RequestHandlerExtra<
  ServerRequest | Request,
  ServerNotification | Notification
>;

type UserQuestion = Parameters<NonNullable<SessionIO["askUser"]>>[0][number];
type UserAnswers = Awaited<ReturnType<NonNullable<SessionIO["askUser"]>>>;

/** Any answer object: the decision is read from it by `decisionOf`, leniently, as Codex does. */
const ANY_ANSWER = z.looseObject({});

/** How long a question may wait for its answer: a person may take a while. */
const APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** The events and questions of one `tools/call`, sent as Codex's MCP server sends them. */
export class ToolCallRun {
  readonly #extra: RequestExtra;
  readonly #stop = new AbortController();
  /** Stops the turn: the client cancelled the call, answered `abort`, or the server closes. */
  readonly signal: AbortSignal;
  #threadId: string | undefined;
  /** Messages from before the session had an id (start-up warnings). */
  #early: CodexMsg[] = [];
  /** Why the turn was stopped from this side, when it was. */
  #stoppedBy: string | undefined;
  /** Progress notifications sent so far, when the client asked for them. */
  #progress = 0;
  /** Warns about a failure the client is not told of (stderr). */
  readonly #log: (line: string) => void;

  constructor(extra: RequestExtra, log: (line: string) => void) {
    this.#extra = extra;
    this.#log = log;
    this.signal = AbortSignal.any([extra.signal, this.#stop.signal]);
  }

  /** The id of this call's events: the request id, as Codex uses it for the turn's events. */
  get eventId(): string {
    return String(this.#extra.requestId);
  }

  /** Why the turn was stopped from this side; undefined when it was not. */
  get stoppedBy(): string | undefined {
    return this.#stoppedBy;
  }

  /** Names the session; `configured` (`session_configured`) goes first, then earlier events. */
  threadStarted(threadId: string, configured?: CodexMsg): void {
    this.#threadId = threadId;
    if (configured) this.#notify(configured, "");
    for (const msg of this.#early.splice(0)) this.send(msg);
  }

  /** Sends one `codex/event`; before the session has an id it waits. */
  send(msg: CodexMsg): void {
    if (this.#threadId === undefined) this.#early.push(msg);
    else this.#notify(msg, this.eventId);
  }

  /** Stops the turn (the server is closing). */
  stop(reason: string): void {
    this.#stoppedBy ??= reason;
    this.#stop.abort();
  }

  /**
   * Asks the client about `request` with an `elicitation/create`; `signal` (the turn's) withdraws
   * the question. An error answer denies; `abort` denies and stops the turn.
   */
  async approve(
    request: Omit<ApprovalRequest, "view">,
    events: CodexEvents,
    signal: AbortSignal,
  ): Promise<ApprovalReply> {
    const params = elicitationParams({
      threadId: this.#threadId ?? "",
      toolCallId: this.eventId,
      eventId: this.eventId,
      request,
      view: events.pending(request.callId),
      input: events.pendingInput(request.callId),
      cwd: events.cwd,
    });
    let answer: unknown;
    try {
      answer = await this.#extra.sendRequest(
        { method: "elicitation/create", params },
        ANY_ANSWER,
        { signal, timeout: APPROVAL_TIMEOUT_MS },
      );
    } catch (error) {
      if (!signal.aborted) {
        this.#log(`The client's answer to an approval failed, so it counts as denied: ${error}`);
      }
      return "deny";
    }
    switch (decisionOf(answer)) {
      case "approved":
        return "once";
      case "approved_for_session":
        return "session";
      case "abort":
        this.stop("The client answered abort to an approval, so the turn was stopped");
        return "deny";
      default:
        return "deny";
    }
  }

  /**
   * Puts the model's questions to the client as one `elicitation/create` form; a declined or
   * cancelled form, or an error answer, dismisses them.
   */
  async ask(questions: UserQuestion[], signal: AbortSignal): Promise<UserAnswers> {
    const params = { ...questionForm(questions), threadId: this.#threadId ?? "" };
    try {
      const reply = await this.#extra.sendRequest(
        { method: "elicitation/create", params },
        ANY_ANSWER,
        { signal, timeout: APPROVAL_TIMEOUT_MS },
      );
      return formAnswers(questions, reply);
    } catch (error) {
      if (signal.aborted) throw error;
      this.#log(
        `The client's answer to the model's questions failed, so they were dismissed: ${error}`,
      );
      return null;
    }
  }

  #notify(msg: CodexMsg, id: string): void {
    this.#progressOf(msg);
    const params = {
      _meta: { requestId: this.#extra.requestId, threadId: this.#threadId },
      id,
      msg,
    };
    this.#sendNotification({ method: "codex/event", params });
  }

  /**
   * A `notifications/progress` per event other than text deltas, when the call carries a
   * progress token: SDK clients then keep a long task's call alive (`resetTimeoutOnProgress`).
   */
  #progressOf(msg: CodexMsg): void {
    const progressToken = this.#extra._meta?.progressToken;
    if (progressToken === undefined || msg.type.endsWith("_delta")) return;
    const params = { progressToken, progress: ++this.#progress, message: msg.type };
    this.#sendNotification({ method: "notifications/progress", params });
  }

  #sendNotification(notification: Notification): void {
    this.#extra.sendNotification(notification).catch(
      (error: unknown) => this.#log(`Cannot send a ${notification.method} notification: ${error}`),
    );
  }
}
