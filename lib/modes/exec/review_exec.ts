// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/** `interpreter exec review`: progress on stderr, the rendered review on stdout. */
import { terminalText } from "../../approval/visible.ts";
import { UsageError } from "../../errors.ts";
import { uuidV7 } from "../../store/mod.ts";
import type { ReviewArgs } from "../../cli/cli.ts";
import {
  finishExec,
  jsonEvents,
  jsonStreamOf,
  progress,
  readExecPrompt,
  withInterrupt,
} from "./exec.ts";
import type { ExecOptions } from "../../cli/exec_cli.ts";
import { makeStyle } from "../term/progress.ts";
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

/** Runs the review `args` names in `cwd`; returns the exit code, as `exec` does. */
export async function runExecReview(
  args: ReviewArgs,
  ctx: { cwd: string; env: Record<string, string>; options: ExecOptions },
): Promise<number> {
  const { cwd, env, options } = ctx;
  const named = reviewTargetOf(args);
  const target: ReviewTarget = named.kind !== "prompt" ? named : {
    kind: "custom",
    instructions: await readExecPrompt(named.text),
  };
  const json = jsonStreamOf(options);
  const { review: _review, ...settings } = options;
  const base = {
    cwd,
    env,
    settings,
    ephemeral: options.ephemeral,
    io: { onEvent: json ? jsonEvents(json) : progress(env) },
  };
  return await withReviewSession(base, target, async (session, request) => {
    const style = makeStyle(Deno.stderr.isTerminal() && !env.NO_COLOR);
    console.error(style.bold(`Reviewing ${terminalText(request.hint)}`));
    const { value, stoppedBy } = await withInterrupt((signal) => {
      json?.threadStarted(session.status().sessionId ?? uuidV7());
      json?.turnStarted();
      return runReviewTurn(session, request, signal);
    });
    // The rendered review is the answer: on stdout, in `-o FILE`, and as the `agent_message`.
    return await finishExec({ outcome: renderedOutcome(value) }, {
      json,
      usage: session.usage,
      stoppedBy,
      outputLastMessage: options.outputLastMessage,
    });
  });
}
