import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";
import { completedItems, parseEventLines } from "./_thread_events.ts";

/** The final answer every habit-tracker script ends with. */
export const HABITS_FINAL = "Fixed longest_streak: it now compares whole dates, so streaks " +
  "continue across month boundaries. All 3 tests pass.";

const PYTEST = ["-m", "pytest", "-q", "-p", "no:cacheprovider"];

/**
 * Registers one end-to-end test per wire API: the real CLI runs `harness` against the scripted
 * model in `tests/fixtures/scripts/<script>`, which fixes the habit tracker with that harness's
 * own tools. The file must be fixed, pytest must pass, and the answer must reach stdout. No
 * sandbox flag is given: the default (workspace-write) must let the agent do its job.
 */
export function habitsCase(
  harness: string,
  script: string,
  opts: {
    wires: string[];
    check?: (stderr: string) => void;
    /** Run with `--json` and check its events, which must hold an item of each of these kinds. */
    json?: string[];
  },
): void {
  const wires = opts.wires;
  for (const wire of wires) {
    const how = opts.json ? "exec --json" : "exec";
    Deno.test(`${how} fixes the habit tracker over the ${wire} wire API with the ${harness} harness (${script})`, async () => {
      await using dirs = tempDirs();
      const repo = await dirs.add(fixtureRepo("habits"));
      const before = await run("python3", PYTEST, repo);
      assert.notEqual(before.code, 0, "the fixture must start with a failing test");

      const turns = await loadScript(join(REPO, "tests", "fixtures", "scripts", script));
      await using fake = await startFakeProvider(turns);
      const home = await dirs.add(fakeHome(fake.baseUrl, wire));
      const json = opts.json ? ["--json"] : [];
      const result = await interpreter(
        ["exec", ...json, "--harness", harness, "fix the failing test"],
        { cwd: repo, home },
      );

      assert.deepEqual(fake.failures, [], "every request must satisfy the wire invariants");
      assert.equal(result.code, 0, result.stderr);
      if (opts.json) assertJsonRun(result.stdout, opts.json, repo);
      else assert.equal(result.stdout.trim(), HABITS_FINAL);
      assert.equal(fake.remaining(), 0, "the model's whole script must be used");
      const source = await Deno.readTextFile(join(repo, "habits.py"));
      assert.match(source, /\(today - previous\)\.days == 1/);
      assert.doesNotMatch(source, /today\.day - previous\.day/);
      const after = await run("python3", PYTEST, repo);
      assert.equal(after.code, 0, after.stdout);
      opts.check?.(result.stderr);
    });
  }
}

/**
 * Checks an `exec --json` run's stdout: only SDK-typed events ending in `turn.completed`, an item
 * of each of `kinds`, a completed command, file changes inside `repo`, and the habits answer.
 */
export function assertJsonRun(stdout: string, kinds: string[], repo: string): void {
  const events = parseEventLines(stdout);
  assert.equal(events.at(-1)?.type, "turn.completed");
  const items = completedItems(events);
  for (const kind of kinds) {
    assert.ok(items.some((i) => i.type === kind), `no ${kind} item in ${stdout}`);
  }
  const commands = items.filter((i) => i.type === "command_execution");
  assert.ok(commands.some((i) => i.status === "completed"), stdout);
  for (const change of items.filter((i) => i.type === "file_change")) {
    assert.ok(change.changes.every((ch) => ch.path.startsWith(repo)), JSON.stringify(change));
  }
  const answer = items.findLast((i) => i.type === "agent_message");
  assert.equal(answer?.type === "agent_message" && answer.text, HABITS_FINAL);
}
