import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";

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
  opts: { wires: string[]; check?: (stderr: string) => void },
): void {
  const wires = opts.wires;
  for (const wire of wires) {
    Deno.test(`exec fixes the habit tracker over the ${wire} wire API with the ${harness} harness (${script})`, async () => {
      await using dirs = tempDirs();
      const repo = await dirs.add(fixtureRepo("habits"));
      const before = await run("python3", PYTEST, repo);
      assert.notEqual(before.code, 0, "the fixture must start with a failing test");

      const turns = await loadScript(join(REPO, "tests", "fixtures", "scripts", script));
      await using fake = await startFakeProvider(turns);
      const home = await dirs.add(fakeHome(fake.baseUrl, wire));
      const result = await interpreter(
        ["exec", "--harness", harness, "fix the failing test"],
        { cwd: repo, home },
      );

      assert.deepEqual(fake.failures, [], "every request must satisfy the wire invariants");
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), HABITS_FINAL);
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
