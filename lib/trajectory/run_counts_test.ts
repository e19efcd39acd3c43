import assert from "node:assert/strict";
import { countEvent, emptyRunCounts, runCountsOf } from "./run_counts.ts";

Deno.test("countEvent() counts requests, calls, failures by kind, repairs and stops", () => {
  const counts = emptyRunCounts();
  const events = [
    { type: "model_request" },
    { type: "tool_start" },
    { type: "tool_end", failure: "arguments" as const },
    { type: "tool_start" },
    { type: "tool_end", failure: "unknown_tool" as const },
    { type: "tool_start" },
    { type: "tool_end" },
    { type: "format_error" },
    { type: "tool_calls_repaired", count: 2 },
    { type: "text_delta" },
    { type: "turn_end", outcome: { status: "repeated_call" } },
    { type: "turn_end", outcome: { status: "step_limit" } },
    { type: "turn_end", outcome: { status: "completed" } },
  ];
  for (const event of events) countEvent(counts, event);
  assert.deepEqual(counts, {
    requests: 1,
    tool_calls: 3,
    failed_tool_calls: { arguments: 1, unknown_tool: 1, format: 1, command: 0, other: 0 },
    repaired_tool_calls: 2,
    loop_guard_stops: 1,
    step_limit_stops: 1,
  });
});

Deno.test("runCountsOf() reads the counts a trajectory carries, and none from another agent's", () => {
  const counts = { ...emptyRunCounts(), requests: 4 };
  assert.deepEqual(runCountsOf({ final_metrics: { extra: { run_counts: counts } } }), counts);
  assert.equal(runCountsOf({ final_metrics: { total_steps: 3 } }), undefined);
  assert.equal(runCountsOf(undefined), undefined);
});
