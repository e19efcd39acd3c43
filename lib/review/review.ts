/**
 * A review: one turn in a fresh session of its own (no earlier conversation), in a read-only
 * sandbox where nothing is asked, under the reviewer prompt; its answer is parsed and rendered.
 * `interpreter exec review` and the REPL's `/review` both run it.
 */
import type { TurnOutcome } from "../loop/events.ts";
import { reviewerPrompt } from "./prompt.ts";
import { parseReview, renderReview, type Review } from "./result.ts";
import { buildReviewRequest, type ReviewRequest, type ReviewTarget } from "./target.ts";
import {
  freshOpening,
  type Opening,
  openSession,
  reconfigured,
  type Session,
  type SessionIO,
} from "../session/open.ts";
import { findGitRoot } from "../workspace/git_root.ts";

export type { ReviewTarget } from "./target.ts";

/** A finished review turn; `review` and `text` are there when the turn completed. */
export interface ReviewResult {
  outcome: TurnOutcome;
  review?: Review;
  /** The rendered review, what a person reads (and what `exec --json` sends as the answer). */
  text?: string;
}

/**
 * What a review's session is opened from: the front end's own opening (`resolveOpening()`, with
 * the settings in use), its I/O and environment. The trust check that opening passed is not run
 * again.
 */
export interface ReviewBase {
  opening: Opening;
  io: SessionIO;
  env?: Record<string, string>;
}

/**
 * A review's own opening, from a front end's: the same directory and settings, but read-only with
 * no approvals, a fresh history (never a resumed one) and the reviewer prompt in place of the
 * harness's.
 */
function reviewOpening(base: Opening): Opening {
  const { sandbox: _sandbox, approval: _approval, ...otherLabels } = base.config.labels ?? {};
  return reconfigured(freshOpening(base), {
    sandbox: "read-only",
    approval: "never",
    labels: Object.keys(otherLabels).length > 0 ? otherLabels : undefined,
    instructions: reviewerPrompt,
  });
}

/**
 * Opens a review session, builds the request for `target` and hands both to `use`. Nothing is
 * asked of the user: the session gets only the front end's `onEvent`.
 */
export async function withReviewSession<T>(
  base: ReviewBase,
  target: ReviewTarget,
  use: (session: Session, request: ReviewRequest) => Promise<T>,
): Promise<T> {
  const io = { onEvent: base.io.onEvent };
  await using session = await openSession(reviewOpening(base.opening), io, { env: base.env });
  return await use(session, await buildReviewRequest(target, session));
}

/** Runs the review turn and renders its answer, with paths relative to the repository root. */
export async function runReviewTurn(
  session: Session,
  request: ReviewRequest,
  signal: AbortSignal,
): Promise<ReviewResult> {
  const outcome = await session.prompt(request.message, signal);
  if (outcome.status !== "completed") return { outcome };
  // Loaded with the first review's answer, not at start-up.
  const { findingsFromCalls, withReported } = await import("./reported.ts");
  const review = withReported(
    parseReview(outcome.finalText),
    findingsFromCalls(session.replayHistory()),
  );
  const cwd = session.info.cwd;
  return { outcome, review, text: renderReview(review, { cwd, root: await findGitRoot(cwd) }) };
}

/** The outcome with the rendered review as its final text, for the usual reporting. */
export function renderedOutcome(result: ReviewResult): TurnOutcome {
  return result.text === undefined || result.outcome.status !== "completed"
    ? result.outcome
    : { ...result.outcome, finalText: result.text };
}
