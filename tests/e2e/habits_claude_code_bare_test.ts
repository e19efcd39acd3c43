import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run } from "./_harness_env.ts";

const SCRIPT = join(REPO, "tests", "fixtures", "scripts", "habits_claude_code_bare.jsonl");
const FINAL = "Fixed longest_streak: it now compares whole dates, so streaks continue across " +
  "month boundaries. All 3 tests pass.";

for (const wire of ["messages", "chat"]) {
  Deno.test(`exec fixes the habit tracker over the ${wire} wire API with the claude-code-bare harness`, async () => {
    const repo = await fixtureRepo("habits");
    const before = await run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], repo);
    assert.notEqual(before.code, 0, "the fixture must start with a failing test");

    await using fake = await startFakeProvider(await loadScript(SCRIPT));
    const home = await fakeHome(fake.baseUrl, wire);
    const result = await interpreter(
      ["exec", "--harness", "claude-code-bare", "fix the failing test"],
      { cwd: repo, home },
    );

    assert.deepEqual(fake.failures, [], "every request must satisfy the wire invariants");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), FINAL);
    assert.equal(fake.remaining(), 0, "the model's whole script must be used");
    const source = await Deno.readTextFile(join(repo, "habits.py"));
    assert.match(source, /\(today - previous\)\.days == 1/);
    assert.doesNotMatch(source, /today\.day - previous\.day/);
    const after = await run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], repo);
    assert.equal(after.code, 0, after.stdout);
  });
}
