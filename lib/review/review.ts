/**
 * A review: one turn in a fresh session of its own (no earlier conversation), in a read-only
 * sandbox where nothing is asked, under the reviewer prompt; its answer is parsed and rendered.
 * `interpreter exec review` and the REPL's `/review` both run it.
 */
import { fillPromptVariables } from "../harness/prompt.ts";
import type { TurnOutcome } from "../loop/events.ts";
import { REVIEWER_PROMPT } from "./prompt.ts";
import { parseReview, renderReview, type Review } from "./result.ts";
import { buildReviewRequest, type ReviewRequest, type ReviewTarget } from "./target.ts";
import { openSession, type Session, type SessionOptions } from "../session/open.ts";
import { findGitRoot } from "../session/setup.ts";

export type { ReviewTarget } from "./target.ts";

/** A finished review turn; `review` and `text` are there when the turn completed. */
export interface ReviewResult {
  outcome: TurnOutcome;
  review?: Review;
  /** The rendered review, what a person reads (and what `exec --json` sends as the answer). */
  text?: string;
}

/**
 * The options of a review's own session, from a front end's: the same directory, environment
 * and settings, but read-only, with no approvals and no questions to the user, a fresh history
 * (never a resumed one) and the reviewer prompt in place of the harness's.
 */
export function reviewSessionOptions(base: SessionOptions): SessionOptions {
  const { yolo: _yolo, ...settings } = base.settings;
  return {
    cwd: base.cwd,
    env: base.env,
    origin: base.origin,
    ephemeral: base.ephemeral,
    settings: { ...settings, sandbox: "read-only", askForApproval: "never" },
    instructions: (agent) => fillPromptVariables(REVIEWER_PROMPT, agent.harness, agent.promptVars),
    io: { onEvent: base.io.onEvent },
  };
}

/** Opens a review session, builds the request for `target` and hands both to `use`. */
export async function withReviewSession<T>(
  base: SessionOptions,
  target: ReviewTarget,
  use: (session: Session, request: ReviewRequest) => Promise<T>,
): Promise<T> {
  await using session = await openSession(reviewSessionOptions(base));
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
  const review = parseReview(outcome.finalText);
  const cwd = session.info.cwd;
  return { outcome, review, text: renderReview(review, { cwd, root: await findGitRoot(cwd) }) };
}

/** The outcome with the rendered review as its final text, for the usual reporting. */
export function renderedOutcome(result: ReviewResult): TurnOutcome {
  return result.text === undefined || result.outcome.status !== "completed"
    ? result.outcome
    : { ...result.outcome, finalText: result.text };
}
