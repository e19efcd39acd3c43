/**
 * Fixtures for the report tests: run records with defaults, a realistic job (three harnesses ×
 * one model × three attempts), trajectories for some of its runs, and the golden-file check
 * (`UPDATE_GOLDEN=1` rewrites `tests/golden/eval/`, as in tests/harness_golden_test.ts).
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Trajectory } from "../../../trajectory/atif.ts";
import type { FailedCalls, RunRecord } from "../types.ts";

/** What a test says about a record; the rest are defaults. */
export type RecordFacts = Partial<Omit<RunRecord, "failed_tool_calls">> & {
  failed?: Partial<FailedCalls>;
};

/** A run record: a passing one-step run of `task` with `native` on `gpt-4.1`, but for `facts`. */
export function makeRecord(facts: RecordFacts = {}): RunRecord {
  const { failed, ...rest } = facts;
  const task = rest.task ?? "task";
  const harness = rest.harness ?? "native";
  const attempt = rest.attempt ?? 1;
  return {
    trial: `${task}__${harness}__${attempt}`,
    task,
    harness,
    model: "gpt-4.1",
    provider: "openai",
    attempt,
    passed: true,
    reward: rest.passed === false ? 0 : 1,
    status: "completed",
    error: null,
    requests: 1,
    tool_calls: 0,
    failed_tool_calls: {
      arguments: 0,
      unknown_tool: 0,
      format: 0,
      command: 0,
      other: 0,
      ...failed,
    },
    repaired_tool_calls: 0,
    loop_guard_stops: 0,
    step_limit_stops: 0,
    tokens: { input: 1000, output: 100, cached: 0 },
    cost_usd: 0.001,
    time_sec: { setup: 0.5, agent: 3, check: 0.5, total: 4 },
    diff: { files: 1, added: 3, deleted: 1 },
    session_id: `ses_${harness}_${attempt}`,
    harness_hash: "sha256:0f3a",
    started_at: `2025-06-01T10:0${attempt}:00Z`,
    finished_at: `2025-06-01T10:0${attempt}:04Z`,
    ...rest,
  };
}

/** `count` records of one harness (attempts 1…count), each from `facts(attempt)`. */
export function makeRuns(
  harness: string,
  count: number,
  facts: (attempt: number) => RecordFacts,
): RunRecord[] {
  return Array.from(
    { length: count },
    (_, i) => makeRecord({ harness, attempt: i + 1, ...facts(i + 1) }),
  );
}

/**
 * A realistic job on task `fix-bug`: native passes 3/3 cleanly, claude-code passes 3/3 with
 * failed calls on the way, minimal fails 0/3, each run stopped by the loop guard.
 */
export function realisticRecords(): RunRecord[] {
  const task = "fix-bug";
  return [
    ...makeRuns("minimal", 3, (a) => ({
      task,
      passed: false,
      reward: 0,
      status: "repeated_call",
      requests: 14 + a,
      tool_calls: 12,
      failed: { format: 3, command: a },
      loop_guard_stops: 1,
      tokens: { input: 30_000 + 1000 * a, output: 2000, cached: 20_000 },
      cost_usd: 0.07,
      time_sec: { setup: 0.4, agent: 20 + a, check: 0.6, total: 21 + a },
      diff: { files: 0, added: 0, deleted: 0 },
    })),
    ...makeRuns("native", 3, (a) => ({
      task,
      requests: 5 + a,
      tool_calls: 6 + a,
      tokens: { input: 11_000 + 300 * a, output: 900, cached: 8000 },
      cost_usd: 0.012,
      time_sec: { setup: 0.4, agent: 3.5 + a / 10, check: 0.3, total: 4.2 + a / 10 },
    })),
    ...makeRuns("claude-code", 3, (a) => ({
      task,
      requests: 8 + a,
      tool_calls: 10,
      failed: { arguments: 1, command: a === 2 ? 2 : 1 },
      tokens: { input: 15_000 + 500 * a, output: 1200, cached: 12_000 },
      cost_usd: 0.018,
      time_sec: { setup: 0.4, agent: 6 + a / 10, check: 0.3, total: 6.7 + a / 10 },
      session_id: a === 3 ? null : `ses_claude-code_${a}`,
    })),
  ];
}

/** Trajectories for native attempt 1 and minimal attempt 1 (hostile text in it); no others. */
export function realisticTrajectories(): Map<string, Trajectory> {
  return new Map([
    ["fix-bug__native__1", nativeTrajectory()],
    ["fix-bug__minimal__1", minimalTrajectory()],
  ]);
}

function nativeTrajectory(): Trajectory {
  return {
    schema_version: "ATIF-v1.4",
    session_id: "ses_native_1",
    agent: { name: "interpreter", version: "0.1.0", model_name: "gpt-4.1" },
    steps: [
      { step_id: 1, source: "user", message: "Fix the failing test in src/sum.ts" },
      {
        step_id: 2,
        source: "agent",
        message: "",
        reasoning_content: "The test says sum(2, 2) should be 4.",
        tool_calls: [{
          tool_call_id: "c1",
          function_name: "read",
          arguments: { path: "src/sum.ts" },
        }],
        observation: {
          results: [{ source_call_id: "c1", content: "export const sum = (a, b) => a - b;" }],
        },
        metrics: { prompt_tokens: 3000, completion_tokens: 120, cached_tokens: 2000 },
      },
      {
        step_id: 3,
        source: "agent",
        message: "Fixed: `sum` subtracted instead of adding.",
        metrics: { prompt_tokens: 3400, completion_tokens: 40, cached_tokens: 3000 },
      },
    ],
    final_metrics: { total_prompt_tokens: 6400, total_completion_tokens: 160, total_steps: 3 },
  };
}

function minimalTrajectory(): Trajectory {
  return {
    schema_version: "ATIF-v1.4",
    session_id: "ses_minimal_1",
    agent: { name: "interpreter", version: "0.1.0", model_name: "gpt-4.1" },
    steps: [
      { step_id: 1, source: "user", message: "Fix the failing test in src/sum.ts" },
      {
        step_id: 2,
        source: "agent",
        message: "Running <script>alert('x')</script> & \"friends\"",
        tool_calls: [{
          tool_call_id: "c1",
          function_name: "bash",
          arguments: { command: "cat src/sum.ts && echo '<b>'" },
        }],
        observation: { results: [{ source_call_id: "c1", content: "exit 1\n<img src=x>" }] },
        metrics: { prompt_tokens: 2500, completion_tokens: 80 },
        extra: { failed_tool_calls: ["c1"] },
      },
    ],
    notes: "Stopped by the loop guard: the same call three times.",
  };
}

/** The file under tests/golden/eval/ for `name`. */
function goldenPath(name: string): string {
  return fileURLToPath(new URL(`../../../../tests/golden/eval/${name}`, import.meta.url));
}

/** Asserts `text` equals the golden file `name`; with `UPDATE_GOLDEN=1` writes it instead. */
export async function assertGolden(name: string, text: string): Promise<void> {
  const path = goldenPath(name);
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
    return;
  }
  const golden = await Deno.readTextFile(path).catch(() => undefined);
  assert.ok(golden !== undefined, `tests/golden/eval/${name} is missing: run with UPDATE_GOLDEN=1`);
  assert.equal(
    text,
    golden,
    `tests/golden/eval/${name} is out of date: check the change, then run with UPDATE_GOLDEN=1`,
  );
}
