import assert from "node:assert/strict";
import { atifProblems, atifV14Problems } from "../../tests/_atif.ts";
import type { Message, Usage } from "../model/message.ts";
import { ATIF_VERSION, type TrajectoryMeta, trajectoryOf } from "./atif.ts";
import { withSubagents } from "./subagents.ts";

const META: TrajectoryMeta = {
  sessionId: "0199a1b2-0000-7000-8000-000000000001",
  agent: { name: "interpreter", version: "0.1.0", modelName: "gpt-test" },
};

function usage(input: number, output: number, cached = 0, reasoning = 0): Usage {
  return {
    inputTokens: input,
    outputTokens: output,
    cachedInputTokens: cached,
    reasoningTokens: reasoning,
  };
}

function user(text: string): Message {
  return { role: "user", blocks: [{ type: "text", text }] };
}

function valid(messages: Message[], meta = META) {
  const trajectory = trajectoryOf(messages, meta);
  assert.deepEqual(atifProblems(JSON.parse(JSON.stringify(trajectory))), []);
  return trajectory;
}

Deno.test("a text-only turn is a user step and an agent step with its metrics and totals", () => {
  const t = valid([
    user("hello"),
    {
      role: "assistant",
      blocks: [{ type: "text", text: "Hi." }],
      stop: "end_turn",
      usage: usage(120, 8, 100),
    },
  ]);
  assert.equal(t.schema_version, ATIF_VERSION);
  assert.equal(t.session_id, META.sessionId);
  assert.deepEqual(t.agent, { name: "interpreter", version: "0.1.0", model_name: "gpt-test" });
  assert.deepEqual(t.steps, [
    { step_id: 1, source: "user", message: "hello" },
    {
      step_id: 2,
      source: "agent",
      message: "Hi.",
      metrics: { prompt_tokens: 120, completion_tokens: 8, cached_tokens: 100 },
    },
  ]);
  assert.deepEqual(t.final_metrics, {
    total_prompt_tokens: 120,
    total_completion_tokens: 8,
    total_cached_tokens: 100,
    total_steps: 2,
  });
  assert.equal(t.notes, undefined);
});

Deno.test("tool calls carry their arguments and their results become the step's observation", () => {
  const t = valid([
    user("list and read"),
    {
      role: "assistant",
      blocks: [
        { type: "text", text: "Looking." },
        { type: "tool_call", id: "c1", name: "shell", args: { command: ["ls"] } },
        { type: "tool_call", id: "c2", name: "apply_patch", args: "*** Begin Patch" },
        { type: "tool_call", id: "c3", name: "noop", args: undefined },
      ],
      stop: "tool_calls",
      usage: usage(50, 20),
    },
    {
      role: "tool_result",
      callId: "c1",
      name: "shell",
      blocks: [{ type: "text", text: "a.py" }],
      isError: false,
    },
    {
      role: "tool_result",
      callId: "c2",
      name: "apply_patch",
      blocks: [{ type: "text", text: "ok" }],
      isError: false,
    },
    {
      role: "assistant",
      blocks: [{ type: "text", text: "Done." }],
      stop: "end_turn",
      usage: usage(90, 4),
    },
  ]);
  const step = t.steps[1];
  assert.deepEqual(step.tool_calls, [
    { tool_call_id: "c1", function_name: "shell", arguments: { command: ["ls"] } },
    { tool_call_id: "c2", function_name: "apply_patch", arguments: { input: "*** Begin Patch" } },
    { tool_call_id: "c3", function_name: "noop", arguments: {} },
  ]);
  assert.deepEqual(step.observation, {
    results: [{ source_call_id: "c1", content: "a.py" }, { source_call_id: "c2", content: "ok" }],
  });
  assert.equal(step.extra, undefined);
  assert.equal(t.steps.length, 3);
  assert.equal(t.final_metrics?.total_prompt_tokens, 140);
});

Deno.test("a failed call keeps its error text and is listed in the step's extra", () => {
  const t = valid([
    user("run it"),
    {
      role: "assistant",
      blocks: [{ type: "tool_call", id: "bad", name: "shell", args: {}, rawArgs: "{oops" }],
      stop: "tool_calls",
      usage: usage(10, 2),
    },
    {
      role: "tool_result",
      callId: "bad",
      name: "shell",
      blocks: [{ type: "text", text: "error: missing command" }],
      isError: true,
    },
  ]);
  assert.deepEqual(t.steps[1].observation?.results, [
    { source_call_id: "bad", content: "error: missing command", extra: { is_error: true } },
  ]);
  assert.deepEqual(t.steps[1].extra, { failed_tool_calls: ["bad"] });
});

Deno.test("reasoning goes to reasoning_content, with reasoning tokens in metrics' extra", () => {
  const t = valid([
    user("think"),
    {
      role: "assistant",
      blocks: [
        { type: "thinking", text: "First idea.", signature: "sig" },
        { type: "thinking", text: "Second idea." },
        { type: "text", text: "Answer." },
      ],
      stop: "end_turn",
      usage: usage(30, 40, 0, 25),
    },
  ]);
  assert.equal(t.steps[1].reasoning_content, "First idea.\n\nSecond idea.");
  assert.deepEqual(t.steps[1].metrics?.extra, { reasoning_tokens: 25 });
  assert.deepEqual(t.final_metrics?.extra, { total_reasoning_tokens: 25 });
});

Deno.test("a result without its call in the step before becomes a system step", () => {
  const t = valid([
    user("[summary of earlier work]"),
    {
      role: "tool_result",
      callId: "old",
      name: "shell",
      blocks: [{ type: "text", text: "x" }],
      isError: true,
    },
  ]);
  assert.deepEqual(t.steps[1], {
    step_id: 2,
    source: "system",
    message: "Result of shell call old",
    observation: { results: [{ content: "x", extra: { is_error: true } }] },
    extra: { tool_call_id: "old", function_name: "shell", failed: true },
  });
});

Deno.test("an unfinished run keeps its totals, cost and notes; an empty history still has a step", () => {
  const t = valid(
    [
      {
        role: "user",
        blocks: [{ type: "image", mime: "image/png", base64: "AA==" }, {
          type: "text",
          text: "fix",
        }],
      },
      { role: "assistant", blocks: [], stop: "aborted", usage: usage(0, 0) },
    ],
    { ...META, usage: usage(500, 60, 10), costUsd: 0.0123, notes: "Interrupted" },
  );
  assert.equal(t.steps[0].message, "[image: image/png]\nfix");
  assert.deepEqual(t.steps[1], {
    step_id: 2,
    source: "agent",
    message: "",
    extra: { stop_reason: "aborted" },
  });
  assert.equal(t.notes, "Interrupted");
  assert.equal(t.final_metrics?.total_prompt_tokens, 500);
  assert.equal(t.final_metrics?.total_cost_usd, 0.0123);
  const empty = valid([]);
  assert.equal(empty.steps.length, 1);
  assert.equal(empty.steps[0].source, "system");
});

Deno.test("the checker finds what Harbor's validator rejects", () => {
  const t = JSON.parse(JSON.stringify(trajectoryOf([user("hi")], META)));
  assert.deepEqual(atifProblems({ ...t, surprise: 1 }), ["/ must NOT have additional properties"]);
  t.steps.push({ step_id: 3, source: "user", message: "x", metrics: { prompt_tokens: 1 } });
  t.steps.push({
    step_id: 3,
    source: "agent",
    message: "",
    timestamp: "yesterday",
    tool_calls: [{ tool_call_id: "a", function_name: "f", arguments: {} }],
    observation: { results: [{ source_call_id: "b", content: "" }] },
  });
  assert.deepEqual(atifProblems(t), [
    "step 2: step_id 3, expected 2",
    "step 2: metrics on a user step",
    'step 3: timestamp "yesterday" is not ISO 8601',
    "step 3: source_call_id b names no call of the step",
  ]);
});

Deno.test("a trajectory is ATIF-v1.7 with its id; a call's namespace and a freeform tool go in its extra", () => {
  const t = valid([
    user("what time is it"),
    {
      role: "assistant",
      blocks: [
        { type: "tool_call", id: "c1", name: "now", args: {}, namespace: "clock" },
        {
          type: "tool_call",
          id: "c2",
          name: "apply_patch",
          args: { input: "*** x" },
          freeform: true,
        },
      ],
      stop: "tool_calls",
      usage: usage(5, 1),
    },
  ]);
  assert.equal(t.schema_version, "ATIF-v1.7");
  assert.equal(t.trajectory_id, META.sessionId);
  assert.deepEqual(t.steps[1].tool_calls?.map((c) => c.extra), [
    { namespace: "clock" },
    { freeform: true },
  ]);
  assert.ok(atifV14Problems(JSON.parse(JSON.stringify(t))).length > 0, "v1.4 has no such fields");
});

Deno.test("a sub-agent's run is embedded and referenced from the result of the call that spawned it", () => {
  const parent = trajectoryOf([
    user("use a helper"),
    {
      role: "assistant",
      blocks: [{ type: "tool_call", id: "spawn", name: "spawn_agent", args: { message: "go" } }],
      stop: "tool_calls",
      usage: usage(10, 1),
    },
    {
      role: "tool_result",
      callId: "spawn",
      name: "spawn_agent",
      blocks: [{ type: "text", text: "agent-1" }],
      isError: false,
    },
  ], { ...META, usage: usage(1010, 101) });
  const subId = `${META.sessionId}/agent-1`;
  const sub = trajectoryOf([user("go"), {
    role: "assistant",
    blocks: [{ type: "text", text: "done" }],
    stop: "end_turn",
    usage: usage(1000, 100),
  }], { ...META, sessionId: subId, agent: { ...META.agent, extra: { parent_call_id: "spawn" } } });
  const t = JSON.parse(JSON.stringify(withSubagents(parent, [sub])));
  assert.deepEqual(atifProblems(t), []);
  assert.deepEqual(t.subagent_trajectories.map((s: { trajectory_id: string }) => s.trajectory_id), [
    subId,
  ]);
  assert.deepEqual(t.steps[1].observation.results[0].subagent_trajectory_ref, [
    { trajectory_id: subId, session_id: subId },
  ]);
  assert.match(t.notes, /1 sub-agent run/);
  assert.equal(withSubagents(parent, []), parent, "nothing to embed leaves it as it was");
  const twice = JSON.parse(JSON.stringify(withSubagents(parent, [sub, sub])));
  assert.deepEqual(atifProblems(twice), [
    `subagent_trajectories[1]: trajectory_id ${subId} is not unique`,
  ]);
});

Deno.test("the checker applies v1.7's rules: llm_call_count 0, references naming a trajectory", () => {
  const t = JSON.parse(JSON.stringify(trajectoryOf([user("hi")], META)));
  t.steps.push({
    step_id: 2,
    source: "agent",
    message: "",
    llm_call_count: 0,
    metrics: { prompt_tokens: 1 },
  });
  assert.deepEqual(atifProblems(t), ["step 2: metrics on a step with llm_call_count 0"]);
  t.steps[1] = {
    step_id: 2,
    source: "system",
    message: "",
    observation: { results: [{ subagent_trajectory_ref: [{ session_id: "x" }] }] },
  };
  assert.ok(atifProblems(t).length > 0, "a reference needs trajectory_id or trajectory_path");
  t.steps[1].observation.results[0].subagent_trajectory_ref = [{ trajectory_path: "sub.json" }];
  assert.deepEqual(atifProblems(t), []);
});
