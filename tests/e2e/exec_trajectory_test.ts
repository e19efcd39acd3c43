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

Deno.test("exec --json --trajectory writes the habit-tracker run as a valid ATIF-v1.4 trajectory", async () => {
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
  assert.equal(t.schema_version, "ATIF-v1.4");
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
