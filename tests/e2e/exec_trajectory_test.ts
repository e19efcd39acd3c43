import assert from "node:assert/strict";
import { join } from "node:path";
import { atifProblems } from "../_atif.ts";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import type { AtifStep, Trajectory } from "../../lib/trajectory/atif.ts";
import { HABITS_FINAL } from "./_habits.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, tempDirs } from "./_harness_env.ts";
import { parseEventLines } from "./_thread_events.ts";

async function readTrajectory(file: string): Promise<Trajectory> {
  const doc = JSON.parse(await Deno.readTextFile(file));
  assert.deepEqual(atifProblems(doc), [], "the trajectory must pass Harbor's checks");
  return doc;
}

Deno.test("exec --json --trajectory writes the habit-tracker run as a valid ATIF-v1.7 trajectory", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const out = await dirs.add(Deno.makeTempDir());
  const turns = await loadScript(join(REPO, "tests", "fixtures", "scripts", "habits_native.jsonl"));
  await using fake = await startFakeProvider(turns);
  const home = await dirs.add(fakeHome(fake.baseUrl, "responses"));
  const file = join(out, "agent", "trajectory.json");
  const result = await interpreter(
    ["exec", "--json", "--trajectory", file, "--harness", "native", "fix the failing test"],
    { cwd: repo, home },
  );
  assert.equal(result.code, 0, result.stderr);
  const started = parseEventLines(result.stdout).find((e) => e.type === "thread.started");
  const t = await readTrajectory(file);
  assert.equal(t.schema_version, "ATIF-v1.7");
  assert.equal(t.trajectory_id, t.session_id);
  assert.equal(t.session_id, started?.type === "thread.started" && started.thread_id);
  assert.equal(t.agent.name, "interpreter");
  assert.equal(t.agent.model_name, "fake-model");
  assert.deepEqual(t.steps[0], { step_id: 1, source: "user", message: "fix the failing test" });
  const agent = t.steps.filter((s) => s.source === "agent");
  assert.equal(agent.length, turns.length, "one agent step per model request");
  assert.equal(agent[0].reasoning_content, "Look at the code first.");
  assert.equal(agent.at(-1)?.message, HABITS_FINAL);
  const calls = agent.flatMap((s) => s.tool_calls ?? []);
  assert.deepEqual(calls[0].arguments, { cmd: "cat habits.py" });
  assert.ok(calls.some((c) => c.function_name === "apply_patch"));
  const results = agent.flatMap((s: AtifStep) => s.observation?.results ?? []);
  assert.equal(results.length, calls.length, "every call's result is in the trajectory");
  assert.ok(results.some((r) => r.content?.includes("3 passed")));
  assert.ok(agent.every((s) => (s.metrics?.completion_tokens ?? 0) > 0));
  const promptSum = agent.reduce((n, s) => n + (s.metrics?.prompt_tokens ?? 0), 0);
  assert.equal(t.final_metrics?.total_prompt_tokens, promptSum);
  assert.equal(t.final_metrics?.total_steps, t.steps.length);
  assert.equal(t.notes, undefined);
  const extra = t.final_metrics?.extra as Record<string, unknown>;
  assert.equal(extra.run_status, "completed");
  assert.deepEqual(extra.run_counts, {
    requests: turns.length,
    tool_calls: calls.length,
    // The first pytest run reproduces the bug: one command that exits non-zero.
    failed_tool_calls: { arguments: 0, unknown_tool: 0, format: 0, command: 1, other: 0 },
    repaired_tool_calls: 0,
    loop_guard_stops: 0,
    step_limit_stops: 0,
  });
  assert.match(String(t.agent.extra?.harness_hash), /^[0-9a-f]{64}$/);
  const left = [...Deno.readDirSync(join(out, "agent"))].map((e) => e.name);
  assert.deepEqual(left, ["trajectory.json"], "no temp file is left beside it");
});

Deno.test("exec --trajectory writes what happened when the turn fails, and says how it ended", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo one" } }] } },
  ]);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat", "max_turn_steps = 1"));
  const file = join(repo, "t.json");
  const result = await interpreter(["exec", "--trajectory", "t.json", "loop"], { cwd: repo, home });
  assert.equal(result.code, 1, result.stderr);
  const t = await readTrajectory(file);
  assert.deepEqual(t.steps.map((s) => s.source), ["user", "agent"]);
  const results = t.steps[1].observation?.results ?? [];
  assert.equal(results.length, 1);
  assert.match(results[0].content ?? "", /Output:\none\s*$/);
  assert.match(
    t.notes ?? "",
    /^The turn ended with step_limit: Stopped at the turn limit \(max_turn_steps = 1\): the model made 1 requests/,
  );
  const counts = (t.final_metrics?.extra as { run_counts: Record<string, number> }).run_counts;
  assert.equal(counts.step_limit_stops, 1);
});

Deno.test("exec --trajectory embeds a sub-agent's run, linked from the call that spawned it", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(fixtureRepo("habits"));
  const parent = (reply: Record<string, unknown>) => ({
    reply: { ...reply, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  const agentCall = (name: string, args: Record<string, unknown>) =>
    parent({ tool_calls: [{ name, args, namespace: "multi_agent_v1" }] });
  await using fake = startFakeProvider([], {
    routes: [
      {
        model: "fake-model",
        tools_include: ["spawn_agent"],
        script: [
          agentCall("spawn_agent", { message: "Look around" }),
          agentCall("wait_agent", { targets: ["agent-1"], timeout_ms: 60_000 }),
          parent({ text: "Done." }),
        ],
      },
      {
        model: "fake-model",
        script: [{
          reply: { text: "sub answer", usage: { input_tokens: 1000, output_tokens: 100 } },
        }],
      },
    ],
  });
  const home = await dirs.add(fakeHome(fake.baseUrl, "responses"));
  const file = join(repo, "t.json");
  const result = await interpreter(
    ["exec", "--trajectory", "t.json", "--harness", "native", "use a helper"],
    { cwd: repo, home },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(fake.remaining(), 0);
  const t = await readTrajectory(file);
  assert.equal(t.schema_version, "ATIF-v1.7");
  const subs = t.subagent_trajectories ?? [];
  assert.deepEqual(subs.map((s) => s.trajectory_id), [`${t.session_id}/agent-1`]);
  assert.match(JSON.stringify(subs[0].steps), /sub answer/);
  const spawn = t.steps.flatMap((s) => s.tool_calls ?? []).find((c) =>
    c.function_name === "spawn_agent"
  );
  const refs = t.steps.flatMap((s) => s.observation?.results ?? [])
    .filter((r) => r.subagent_trajectory_ref);
  assert.deepEqual(refs.map((r) => r.source_call_id), [spawn?.tool_call_id]);
  assert.deepEqual(refs[0].subagent_trajectory_ref?.map((r) => r.trajectory_id), [
    subs[0].trajectory_id,
  ]);
  // The totals count the sub-agent's request; its embedded steps account for it.
  assert.equal(t.final_metrics?.total_prompt_tokens, 3 * 10 + 1000);
  assert.equal(subs[0].final_metrics?.total_prompt_tokens, 1000);
  assert.match(t.notes ?? "", /1 sub-agent run/);
  assert.deepEqual(
    [...Deno.readDirSync(repo)].filter((e) => e.name.startsWith("t.")).map((e) => e.name),
    [
      "t.json",
    ],
  );
});
