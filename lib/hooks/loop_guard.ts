/**
 * The loop guard, a link of the tool-hook chain: a model that makes the same failing call (same tool, same arguments, same
 * error; a command that exits non-zero fails) `repeats` times in a row gets one reminder, in
 * the harness's own words, to read the error and try something else; if it makes that call once
 * more, or loops on it again later, the turn stops. A call that keeps succeeding the same way
 * (polling a job) never counts.
 */
import type { Harness } from "../harness/types.ts";
import type { RepeatedCall } from "../loop/events.ts";
import type { HookResult, HookTurn, ToolHook } from "../loop/tool_hooks.ts";

/** `loop_guard_repeats` when unset. */
export const DEFAULT_LOOP_GUARD_REPEATS = 3;

/** The reminder for harnesses that have no `when = "loop"` text of their own. */
const DEFAULT_LOOP_TEXT = "You have made the same {tool} call {repeats} times and it failed the " +
  "same way each time. Read the error, then try a different approach instead of repeating it.";

/** Output fields that differ between two runs of the same call. */
const VOLATILE_FIELDS = new Set(["durationMs"]);

/** What the loop does after a call: nothing, add the reminder to its result, or stop. */
export type GuardVerdict =
  | { action: "none" }
  | { action: "remind"; text: string }
  | { action: "stop"; call: RepeatedCall };

/** Watches one turn's tool calls; see the module comment. */
export class LoopGuard {
  readonly #repeats: number;
  readonly #harness: Harness;
  #key: string | undefined;
  #count = 0;
  /** Calls the model was already reminded about. */
  #reminded = new Set<string>();

  /** `repeats` of 0 turns the guard off. */
  constructor(repeats: number, harness: Harness) {
    this.#repeats = repeats;
    this.#harness = harness;
  }

  /** Counts one finished call. */
  afterCall(
    call: { name: string; args: unknown; rawArgs?: string },
    result: HookResult,
  ): GuardVerdict {
    if (this.#repeats === 0) return { action: "none" };
    if (!failed(result)) {
      this.#key = undefined;
      this.#count = 0;
      return { action: "none" };
    }
    const key = JSON.stringify([
      call.name,
      canonical(call.args ?? call.rawArgs),
      fingerprint(result),
    ]);
    this.#count = key === this.#key ? this.#count + 1 : 1;
    this.#key = key;
    if (this.#count < this.#repeats) return { action: "none" };
    if (this.#count === this.#repeats && !this.#reminded.has(key)) {
      this.#reminded.add(key);
      return { action: "remind", text: loopReminder(this.#harness, call.name, this.#count) };
    }
    const error = errorLines(result);
    return {
      action: "stop",
      call: { name: call.name, args: call.args, error, repeats: this.#count },
    };
  }
}

/**
 * The loop guard as a link for one turn: its reminder is a note after the result, and its stop
 * ends the turn as `repeated_call`. `repeats` of 0 turns it off.
 */
export function loopGuardLink(
  turn: HookTurn,
  repeats: number = DEFAULT_LOOP_GUARD_REPEATS,
): ToolHook {
  const guard = new LoopGuard(repeats, turn.harness);
  return {
    name: "loop guard",
    after(call, result) {
      const verdict = guard.afterCall(call, result);
      if (verdict.action === "remind") {
        return Promise.resolve({ action: "append", text: verdict.text });
      }
      if (verdict.action === "none") return Promise.resolve(undefined);
      return Promise.resolve({
        action: "stop",
        outcome: { status: "repeated_call", call: verdict.call },
        reason: "the turn stopped on a repeated failing call",
      });
    },
  };
}

/** The harness's loop reminder with `{tool}` and `{repeats}` filled in, or ours. */
export function loopReminder(harness: Harness, tool: string, repeats: number): string {
  const text = harness.reminders.find((r) => r.when === "loop")?.text ?? DEFAULT_LOOP_TEXT;
  return text.replaceAll("{tool}", tool).replaceAll("{repeats}", String(repeats));
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

/** The start of what went wrong: a command's output, else the result text. */
function errorLines(result: HookResult): string {
  const output = (result.output as { output?: unknown } | undefined)?.output;
  const text = typeof output === "string" && output.trim() ? output : result.text;
  return text.split("\n").filter((line) => line.trim()).slice(0, 3).join("\n").slice(0, 300);
}

/** What identifies a failure: the structured output without timings, else the text. */
function fingerprint(result: HookResult): string {
  const output = result.output;
  if (typeof output !== "object" || output === null) return result.text;
  return canonical(
    Object.fromEntries(Object.entries(output).filter(([k]) => !VOLATILE_FIELDS.has(k))),
  );
}

/** JSON with object keys sorted, so that key order does not make two calls differ. */
function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
        : v,
  );
}
