/**
 * What a run counted as it went: model requests, tool calls, failed calls by kind, repaired
 * calls and the stops that ended a turn early. `exec --trajectory` writes them in the
 * trajectory's `final_metrics.extra.run_counts`; `interpreter eval` reads them back per run.
 */

/** Failed tool calls by kind. */
export interface FailedCalls {
  /** A call whose arguments did not match the tool's schema. */
  arguments: number;
  /** A call to a tool the harness does not have. */
  unknown_tool: number;
  /** A text-protocol reply the harness could not parse (no command, two commands…). */
  format: number;
  /** A command that ran and exited non-zero. */
  command: number;
  /** Any other failed call (a file not found, an edit that did not apply, a refusal). */
  other: number;
}

/** The counts of one run. */
export interface RunCounts {
  /** Model requests (agent steps). */
  requests: number;
  tool_calls: number;
  failed_tool_calls: FailedCalls;
  /** Tool calls written as text that were recovered. */
  repaired_tool_calls: number;
  loop_guard_stops: number;
  step_limit_stops: number;
}

/** The loop events the counter reads (a structural subset of lib/loop's `LoopEvent`). */
export type CountedEvent =
  | { type: "model_request" }
  | { type: "tool_start" }
  | { type: "tool_end"; failure?: keyof Omit<FailedCalls, "format"> }
  | { type: "tool_calls_repaired"; count: number }
  | { type: "format_error" }
  | { type: "turn_end"; outcome: { status: string } }
  | { type: string };

/** Counts with nothing counted yet. */
export function emptyRunCounts(): RunCounts {
  return {
    requests: 0,
    tool_calls: 0,
    failed_tool_calls: { arguments: 0, unknown_tool: 0, format: 0, command: 0, other: 0 },
    repaired_tool_calls: 0,
    loop_guard_stops: 0,
    step_limit_stops: 0,
  };
}

/** Adds one loop event to `counts`. */
export function countEvent(counts: RunCounts, event: CountedEvent): void {
  const failed = counts.failed_tool_calls;
  if (event.type === "model_request") counts.requests++;
  else if (event.type === "tool_start") counts.tool_calls++;
  else if (event.type === "format_error") failed.format++;
  else if (event.type === "tool_end" && "failure" in event && event.failure) {
    failed[event.failure]++;
  } else if (event.type === "tool_calls_repaired" && "count" in event) {
    counts.repaired_tool_calls += event.count;
  } else if (event.type === "turn_end" && "outcome" in event) {
    if (event.outcome.status === "repeated_call") counts.loop_guard_stops++;
    if (event.outcome.status === "step_limit") counts.step_limit_stops++;
  }
}

/** The counts a trajectory carries, or undefined when it has none (written by another agent). */
export function runCountsOf(trajectory: unknown): RunCounts | undefined {
  const extra = (trajectory as { final_metrics?: { extra?: { run_counts?: unknown } } })
    ?.final_metrics?.extra;
  const counts = extra?.run_counts as RunCounts | undefined;
  if (typeof counts?.requests !== "number" || typeof counts.failed_tool_calls !== "object") {
    return undefined;
  }
  return { ...emptyRunCounts(), ...counts };
}
