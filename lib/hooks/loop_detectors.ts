/**
 * The loop guard's detectors over one turn's calls, each a small state machine that reports a
 * sighting (the loop's shape, how many times it repeated, what repeated) and leaves the
 * reminder-or-stop decision to the guard: the same call with the same outcome again and again
 * (`SameCallRun`: failing, or a read), a cycle of two to four calls with the same outcomes
 * (`CycleWatch`), and steps that only repeat earlier calls (`ProgressWatch`).
 */
import { canonicalJson } from "../config/project_definitions.ts";
import type { LoopShape } from "../harness/loop_shape_names.ts";
import type { RepeatedCall } from "../loop/events.ts";
import type { HookCall, HookResult } from "../loop/tool_hooks.ts";

/** A loop seen in the calls so far. */
export interface Sighting {
  shape: LoopShape;
  /** The same loop has the same key, so that a reminder is given once for it. */
  key: string;
  /** How many times it repeated so far. */
  count: number;
  /** What repeated, for the turn's outcome. */
  call: RepeatedCall;
  /** `{tool}` of the harness's reminder. */
  tool: string;
}

/** One finished call, as the detectors compare calls. */
export interface SeenCall {
  name: string;
  args: unknown;
  /** The tool and its arguments, with object keys sorted. */
  call: string;
  /** `call` with what it got: the structured output without timings, else the text. */
  outcome: string;
  /** An error result, or a command that exited non-zero. */
  failed: boolean;
  /** A successful call of a capability that changes nothing. */
  read: boolean;
  /** A call that waits on a background job: polling, never a loop. */
  polls: boolean;
  /** The start of its error (or result). */
  gist: string;
}

/** Capabilities that wait on a running job: the same answer again means it is still running. */
const POLLING_CAPABILITIES = new Set(["shell.output", "shell.write_stdin"]);
/** Output fields that differ between two runs of the same call. */
const VOLATILE_FIELDS = new Set(["durationMs"]);

/** A call and its result as the detectors see them. */
export function seenCall(
  call: Pick<HookCall, "name" | "args" | "rawArgs" | "capability" | "mutates">,
  result: HookResult,
): SeenCall {
  const key = JSON.stringify([call.name, canonicalJson(call.args ?? call.rawArgs)]);
  const isFailure = failed(result);
  return {
    name: call.name,
    args: call.args,
    call: key,
    outcome: JSON.stringify([key, fingerprint(result)]),
    failed: isFailure,
    read: !isFailure && call.capability !== undefined && call.mutates === false,
    polls: call.capability !== undefined && POLLING_CAPABILITIES.has(call.capability),
    gist: gistOf(result),
  };
}

/** The same call with the same outcome, again: a failing call, or a read (not a poll). */
export class SameCallRun {
  #outcome: string | undefined;
  #count = 0;

  /** Counts one call; a sighting while it fails, or reads, the same way as the one before. */
  see(c: SeenCall): Sighting | undefined {
    this.#count = c.outcome === this.#outcome ? this.#count + 1 : 1;
    this.#outcome = c.outcome;
    const shape = c.failed ? "failing_call" : c.read && !c.polls ? "same_read" : undefined;
    if (!shape) return undefined;
    const count = this.#count;
    const call = { name: c.name, args: c.args, error: c.gist, repeats: count };
    return {
      shape,
      key: `${shape}:${c.outcome}`,
      count,
      call: shape === "failing_call" ? call : { shape, ...call },
      tool: c.name,
    };
  }
}

/** Cycle lengths looked for. */
const PERIODS = [2, 3, 4];

/**
 * A cycle of two to four calls (not all the same) with the same outcomes each time: A,B,A,B or
 * A,B,C,A,B,C. A sighting each time the cycle completes once more, counting how many times in a
 * row it went round.
 */
export class CycleWatch {
  readonly #history: SeenCall[] = [];
  readonly #keep: number;

  /** Remembers enough calls to count `most` rounds of the longest cycle. */
  constructor(most: number) {
    this.#keep = (most + 1) * PERIODS.at(-1)!;
  }

  /** Counts one call. */
  see(c: SeenCall): Sighting | undefined {
    const h = this.#history;
    h.push(c);
    if (h.length > this.#keep) h.shift();
    for (const period of PERIODS) {
      let matched = 0;
      while (
        matched + period < h.length &&
        h[h.length - 1 - matched].outcome === h[h.length - 1 - matched - period].outcome
      ) matched++;
      if (matched === 0 || matched % period !== 0) continue;
      const unit = h.slice(-period);
      const outcomes = [...new Set(unit.map((u) => u.outcome))];
      if (outcomes.length < 2) continue;
      const count = matched / period + 1;
      const error = unit.find((u) => u.failed)?.gist ?? "";
      const names = unit.map((u) => u.name);
      return {
        shape: "cycle",
        key: `cycle:${outcomes.sort().join("\n")}`,
        count,
        call: {
          shape: "cycle",
          name: names.join(" → "),
          args: unit.map((u) => u.args),
          error,
          repeats: count,
        },
        tool: names.join(", "),
      };
    }
    return undefined;
  }
}

/**
 * Steps (model replies) that make no progress: every call in them was made before in this turn
 * with the same arguments and got the same outcome as last time. A reply without calls (a
 * format error, a cut-off) makes none; one that only polls a job neither makes progress nor
 * counts against it.
 */
export class ProgressWatch {
  readonly #outcomes = new Map<string, string>();
  #moved = false;
  #counted = false;
  #steps = 0;
  #last: SeenCall | undefined;

  /** Counts one call of the current step. */
  see(c: SeenCall): void {
    if (c.polls) return;
    this.#counted = true;
    if (this.#outcomes.get(c.call) !== c.outcome) this.#moved = true;
    this.#outcomes.set(c.call, c.outcome);
    this.#last = c;
  }

  /** Ends the step: a sighting while the steps in a row without progress add up. */
  endStep(hadCalls: boolean): Sighting | undefined {
    const [moved, counted] = [this.#moved, this.#counted];
    [this.#moved, this.#counted] = [false, false];
    if (moved) this.#steps = 0;
    if (moved || (hadCalls && !counted)) return undefined;
    const count = ++this.#steps;
    const last = this.#last;
    return {
      shape: "no_progress",
      key: "no_progress",
      count,
      call: {
        shape: "no_progress",
        name: last?.name ?? "",
        args: last?.args,
        error: last?.gist ?? "",
        repeats: count,
      },
      tool: last?.name ?? "",
    };
  }
}

/**
 * An error result, or a command that exited non-zero (or was killed) in a harness whose results
 * do not flag that as an error.
 */
function failed(result: HookResult): boolean {
  const output = result.output as { exitCode?: unknown } | undefined;
  return result.isError || (typeof output === "object" && output !== null &&
    "exitCode" in output && output.exitCode !== 0);
}

/** The start of what a call got: a command's output, else the result text. */
function gistOf(result: HookResult): string {
  const output = (result.output as { output?: unknown } | undefined)?.output;
  const text = typeof output === "string" && output.trim() ? output : result.text;
  return text.split("\n").filter((line) => line.trim()).slice(0, 3).join("\n").slice(0, 300);
}

/** What identifies an outcome: the structured output without timings, else the text. */
function fingerprint(result: HookResult): string {
  const output = result.output;
  if (typeof output !== "object" || output === null) return result.text;
  return canonicalJson(
    Object.fromEntries(Object.entries(output).filter(([k]) => !VOLATILE_FIELDS.has(k))),
  );
}
