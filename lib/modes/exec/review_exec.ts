// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/** `interpreter exec review`: progress on stderr, the rendered review on stdout. */
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import type { Opening } from "../../session/open.ts";
import { outputPlaceFor } from "../../session/run_outputs.ts";
import {
  execStatusLine,
  finishExec,
  jsonEvents,
  jsonStreamOf,
  progress,
  readExecPrompt,
  withInterrupt,
} from "./exec_turn.ts";
import type { ExecOptions, ReviewArgs } from "./exec_options.ts";
import { colorWanted, makeStyle } from "../term/style.ts";
import {
  renderedOutcome,
  type ReviewTarget,
  runReviewTurn,
  withReviewSession,
} from "../../review/review.ts";

const USAGE_HINT = 'Run "interpreter exec review --help" to see the targets';

/** The one target the flags name; a UsageError when they name none or several. */
export function reviewTargetOf(args: ReviewArgs): ReviewTarget | { kind: "prompt"; text: string } {
  const given = [
    args.uncommitted ? "--uncommitted" : "",
    args.base !== undefined ? "--base" : "",
    args.commit !== undefined ? "--commit" : "",
    args.prompt !== undefined ? "PROMPT" : "",
  ].filter(Boolean);
  if (given.length === 0) {
    throw new UsageError(
      "Say what to review: --uncommitted, --base BRANCH, --commit SHA or PROMPT",
      {
        hint: 'e.g. "interpreter exec review --uncommitted"',
      },
    );
  }
  if (given.length > 1) {
    throw new UsageError(`Review one target at a time, not ${given.join(" and ")}`, {
      hint: USAGE_HINT,
    });
  }
  if (args.title !== undefined && args.commit === undefined) {
    throw new UsageError("--title goes with --commit SHA", { hint: USAGE_HINT });
  }
  if (args.uncommitted) return { kind: "uncommitted" };
  if (args.base !== undefined) return { kind: "base", branch: args.base };
  if (args.commit !== undefined) return { kind: "commit", sha: args.commit, title: args.title };
  return { kind: "prompt", text: args.prompt! };
}

/** Runs the review `args` names in the session's directory; returns the exit code, as `exec` does. */
export async function runExecReview(
  args: ReviewArgs,
  ctx: { opening: Opening; env: Record<string, string>; options: ExecOptions },
): Promise<number> {
  const { opening, env, options } = ctx;
  const named = reviewTargetOf(args);
  const target: ReviewTarget = named.kind !== "prompt" ? named : {
    kind: "custom",
    instructions: await readExecPrompt(named.text),
  };
  const json = jsonStreamOf(options);
  const io = { onEvent: json ? jsonEvents(json) : progress(env) };
  return await withReviewSession({ opening, io, env }, target, async (session, request) => {
    const style = makeStyle(colorWanted(env, Deno.stderr.isTerminal()));
    console.error(style.bold(`Reviewing ${terminalText(request.hint)}`));
    const { value, stoppedBy } = await withInterrupt((signal) => {
      json?.threadStarted(session.id);
      json?.turnStarted();
      return runReviewTurn(session, request, signal);
    });
    // The rendered review is the answer: on stdout, in `-o FILE`, and as the `agent_message`.
    return await finishExec(renderedOutcome(value), {
      json,
      usage: session.usage,
      stoppedBy,
      outputLastMessage: options.outputLastMessage,
      outputPlace: outputPlaceFor(session, env),
      statusLine: execStatusLine(session, env),
    });
  });
}
