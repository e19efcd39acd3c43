/**
 * The loop guard, a link of the tool-hook chain. Per turn it watches for a model that repeats
 * itself, in any of these shapes (`[loop_guard]` in config sets each threshold; 0 turns one off):
 *
 * - `repeats`: the same failing call (same tool, arguments and error; a command that exits
 *   non-zero fails) that many times in a row;
 * - `format_errors`: that many replies in a row that a text protocol could not use;
 * - `cycle_repeats`: a cycle of two to four calls, with the same results, gone through that
 *   many times in a row, whether the calls fail or not;
 * - `same_read_repeats`: the same successful read-only call with the same result that many
 *   times in a row (waiting on a background job is polling, and never counts);
 * - `no_progress_steps`: that many replies in a row without progress (see `ProgressWatch`);
 * - `repeated_span_repeats`: a reply whose text or reasoning repeats the same span (at least
 *   `repeated_span_min_chars` long) that many times in a row is cut off while it streams.
 *
 * The first time a shape reaches its threshold the model gets the harness's loop reminder for
 * it, in the vendor's words (for a cut-off reply, the reminder is what the model reads next);
 * if the loop goes on (once more, or the same loop again later, or a second cut-off), the turn
 * stops as `repeated_call`. A call that keeps succeeding the same way (polling) only counts
 * toward `no_progress_steps`.
 */
import type { LoopGuardTable } from "../config/schema.ts";
import type { Harness } from "../harness/types.ts";
import { loopReminderText } from "../harness/reminder_texts.ts";
import type { LoopShape } from "../harness/loop_shape_names.ts";
import type { RepeatedCall } from "../loop/events.ts";
import { describeLoop } from "../loop/repeated_call.ts";
import { RepetitionDetector } from "../loop/repetition.ts";
import type {
  HookCall,
  HookReply,
  HookResult,
  HookTurn,
  ReplyChannel,
  ReplyWatch,
  ToolHook,
} from "../loop/tool_hooks.ts";
import {
  CycleWatch,
  ProgressWatch,
  SameCallRun,
  type SeenCall,
  seenCall,
  type Sighting,
} from "./loop_detectors.ts";

/** The thresholds of the loop guard; 0 turns a check off. */
export interface LoopGuardLimits {
  repeats: number;
  formatErrors: number;
  cycleRepeats: number;
  sameReadRepeats: number;
  noProgressSteps: number;
  repeatedSpanRepeats: number;
  repeatedSpanMinChars: number;
}

/** The thresholds when config sets none. */
const DEFAULT_LOOP_GUARD_LIMITS: Readonly<LoopGuardLimits> = Object.freeze({
  repeats: 3,
  formatErrors: 3,
  cycleRepeats: 3,
  sameReadRepeats: 3,
  noProgressSteps: 8,
  repeatedSpanRepeats: 20,
  repeatedSpanMinChars: 16,
});

/**
 * The thresholds config sets: `[loop_guard]`, then the older `loop_guard_repeats` for `repeats`
 * (`loop_guard.repeats` wins when both are set), then the defaults.
 */
export function loopGuardLimits(
  values: { loop_guard?: LoopGuardTable; loop_guard_repeats?: number },
): LoopGuardLimits {
  const t = values.loop_guard ?? {};
  const d = DEFAULT_LOOP_GUARD_LIMITS;
  return {
    repeats: t.repeats ?? values.loop_guard_repeats ?? d.repeats,
    formatErrors: t.format_errors ?? d.formatErrors,
    cycleRepeats: t.cycle_repeats ?? d.cycleRepeats,
    sameReadRepeats: t.same_read_repeats ?? d.sameReadRepeats,
    noProgressSteps: t.no_progress_steps ?? d.noProgressSteps,
    repeatedSpanRepeats: t.repeated_span_repeats ?? d.repeatedSpanRepeats,
    repeatedSpanMinChars: t.repeated_span_min_chars ?? d.repeatedSpanMinChars,
  };
}

/** What the loop does after a call or a reply: nothing, add the reminder, or stop. */
export type GuardVerdict =
  | { action: "none" }
  | { action: "remind"; text: string }
  | { action: "stop"; call: RepeatedCall };

const NONE: GuardVerdict = { action: "none" };

/** Watches one turn's calls and replies; see the module comment. */
export class LoopGuard {
  readonly #limits: LoopGuardLimits;
  readonly #harness: Harness;
  readonly #run = new SameCallRun();
  readonly #cycles: CycleWatch;
  readonly #progress = new ProgressWatch();
  #callsThisStep = 0;
  #formatErrors = 0;
  #cuts = 0;
  /** Loops the model was already reminded about. */
  readonly #reminded = new Set<string>();

  /** Limits left out take their defaults; a number sets `repeats` alone. */
  constructor(limits: Partial<LoopGuardLimits> | number, harness: Harness) {
    const given = typeof limits === "number" ? { repeats: limits } : limits;
    this.#limits = { ...DEFAULT_LOOP_GUARD_LIMITS, ...given };
    this.#harness = harness;
    this.#cycles = new CycleWatch(this.#limits.cycleRepeats);
  }

  /** Counts one finished call. */
  afterCall(
    call: Pick<HookCall, "name" | "args" | "rawArgs" | "capability" | "mutates">,
    result: HookResult,
  ): GuardVerdict {
    const seen: SeenCall = seenCall(call, result);
    this.#callsThisStep++;
    this.#progress.see(seen);
    const run = this.#run.see(seen);
    const runLimit = run?.shape === "failing_call"
      ? this.#limits.repeats
      : this.#limits.sameReadRepeats;
    return this.#worst([
      this.#judge(run, runLimit),
      this.#judge(this.#cycles.see(seen), this.#limits.cycleRepeats),
    ]);
  }

  /** Counts one finished reply: its format error or cut-off, and whether it made progress. */
  afterReply(reply: HookReply): GuardVerdict {
    const hadCalls = this.#callsThisStep > 0;
    this.#callsThisStep = 0;
    const stalled = this.#judge(this.#progress.endStep(hadCalls), this.#limits.noProgressSteps);
    this.#formatErrors = reply.formatError === undefined ? 0 : this.#formatErrors + 1;
    const format = reply.formatError === undefined ? NONE : this.#judge({
      shape: "format_error",
      key: "format_error",
      count: this.#formatErrors,
      call: {
        shape: "format_error",
        name: "format error",
        args: undefined,
        error: gist(reply.formatError),
        repeats: this.#formatErrors,
      },
      tool: "reply",
    }, this.#limits.formatErrors);
    return this.#worst([this.#cutOff(reply), format, stalled]);
  }

  /** Watches a reply's text and reasoning for runaway repetition; none when that check is off. */
  watchReply(): ReplyWatch | undefined {
    const limits = {
      repeats: this.#limits.repeatedSpanRepeats,
      minChars: this.#limits.repeatedSpanMinChars,
    };
    if (limits.repeats === 0) return undefined;
    const detectors = {
      text: new RepetitionDetector(limits),
      reasoning: new RepetitionDetector(limits),
    };
    return {
      push: (channel: ReplyChannel, text: string) => {
        const found = detectors[channel].push(text);
        if (!found) return undefined;
        const fill = { tool: channel, repeats: found.repeats };
        return {
          channel,
          keep: found.start + found.span.length,
          message: loopReminderText(this.#harness, "repeated_span", fill),
          span: found.span,
          repeats: found.repeats,
        };
      },
      reset: () => {
        detectors.text.reset();
        detectors.reasoning.reset();
      },
    };
  }

  /** A cut-off reply: its message was the reminder; a second one in the turn stops it. */
  #cutOff(reply: HookReply): GuardVerdict {
    if (!reply.cut) return NONE;
    this.#cuts++;
    if (this.#cuts < 2) return NONE;
    const { channel, span } = reply.cut;
    return {
      action: "stop",
      call: {
        shape: "repeated_span",
        name: channel,
        args: undefined,
        error: gist(span.trim()),
        repeats: this.#cuts,
      },
    };
  }

  /** Below the limit nothing; at it, the reminder once per loop; past it (or again), a stop. */
  #judge(sighting: Sighting | undefined, limit: number): GuardVerdict {
    if (!sighting || limit === 0 || sighting.count < limit) return NONE;
    if (sighting.count === limit && !this.#reminded.has(sighting.key)) {
      this.#reminded.add(sighting.key);
      const fill = { tool: sighting.tool, repeats: sighting.count };
      return { action: "remind", text: loopReminderText(this.#harness, sighting.shape, fill) };
    }
    return { action: "stop", call: sighting.call };
  }

  /** A stop over reminders; several reminders go together. */
  #worst(verdicts: GuardVerdict[]): GuardVerdict {
    const stop = verdicts.find((v) => v.action === "stop");
    if (stop) return stop;
    const texts = verdicts.flatMap((v) => v.action === "remind" ? [v.text] : []);
    return texts.length ? { action: "remind", text: texts.join("\n\n") } : NONE;
  }
}

/** Why the rest of a reply's calls were not run, by the shape the turn stopped on. */
const STOP_REASONS: Partial<Record<LoopShape, string>> = {
  cycle: "the turn stopped on a repeated cycle of calls",
  same_read: "the turn stopped on a repeated read",
};

/**
 * The loop guard as a link for one turn: its reminder is a note after the result (or after the
 * reply), its stop ends the turn as `repeated_call`, and it watches each reply as it streams.
 */
export function loopGuardLink(
  turn: HookTurn,
  limits: Partial<LoopGuardLimits> | number = {},
): ToolHook {
  const guard = new LoopGuard(limits, turn.harness);
  return {
    name: "loop guard",
    after: (call, result) => Promise.resolve(linkVerdict(guard.afterCall(call, result))),
    afterReply: (reply) => Promise.resolve(linkVerdict(guard.afterReply(reply))),
    watchReply: () => guard.watchReply(),
  };
}

function linkVerdict(verdict: GuardVerdict) {
  if (verdict.action === "none") return undefined;
  if (verdict.action === "remind") return { action: "append" as const, text: verdict.text };
  const shape = verdict.call.shape ?? "failing_call";
  return {
    action: "stop" as const,
    outcome: {
      status: "repeated_call" as const,
      call: verdict.call,
      words: describeLoop(verdict.call),
    },
    reason: STOP_REASONS[shape] ?? "the turn stopped on a repeated failing call",
  };
}

/** The harness's failing-call loop reminder with `{tool}` and `{repeats}` filled in, or ours. */
export function loopReminder(harness: Harness, tool: string, repeats: number): string {
  return loopReminderText(harness, "failing_call", { tool, repeats });
}

/** The first lines of a text, short enough to show in one error. */
function gist(text: string): string {
  return text.split("\n").filter((line) => line.trim()).slice(0, 3).join("\n").slice(0, 300);
}
