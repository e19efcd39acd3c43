import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter, REPO, run, tempDirs } from "./_harness_env.ts";
import { need } from "../../sandbox/_test_requires.ts";

const FINAL = "Fixed longest_streak: it now compares whole dates, so streaks continue across " +
  "month boundaries. All 3 tests pass.";
const PYTEST = ["-m", "pytest", "-q", "-p", "no:cacheprovider"];
const TMUX = await need("tmux");
const HAS_TMUX = TMUX.ok;
const SKIP = TMUX.note;

const CASES = [
  { harness: "swe-agent", script: "habits_swe_agent.jsonl", wires: ["chat"] },
  { harness: "mini-swe-agent", script: "habits_mini_swe_agent.jsonl", wires: ["chat"] },
  { harness: "terminus-2", script: "habits_terminus_2.jsonl", wires: ["chat"], tmux: true },
];

/** Folders the run left in `tmp`; the terminal's tmux folder must be gone soon after exit. */
async function leftovers(tmp: string): Promise<string[]> {
  for (let i = 0; i < 40; i++) {
    const names: string[] = [];
    for await (const e of Deno.readDir(tmp)) if (e.name.startsWith("oi-tmux-")) names.push(e.name);
    if (names.length === 0) return [];
    if (i === 39) return names;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

for (const c of CASES) {
  for (const wire of c.wires) {
    Deno.test({
      name:
        `exec fixes the habit tracker over the ${wire} wire API with the ${c.harness} text protocol` +
        (c.tmux ? SKIP : ""),
      ignore: c.tmux && !HAS_TMUX,
      async fn() {
        await using dirs = tempDirs();
        const repo = await dirs.add(fixtureRepo("habits"));
        const before = await run("python3", PYTEST, repo);
        assert.notEqual(before.code, 0, "the fixture must start with a failing test");

        await using fake = await startFakeProvider(
          await loadScript(join(REPO, "tests", "fixtures", "scripts", c.script)),
        );
        const home = await dirs.add(fakeHome(fake.baseUrl, wire));
        const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-e2e-tmp-" }));
        const result = await interpreter(
          ["exec", "--harness", c.harness, "-s", "workspace-write", "fix the failing test"],
          { cwd: repo, home, env: { TMPDIR: tmp, PATH: Deno.env.get("PATH") ?? "" } },
        );

        assert.deepEqual(fake.failures, [], "every request must satisfy the wire invariants");
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout.trim(), FINAL);
        assert.equal(fake.remaining(), 0, "the model's whole script must be used");
        const source = await Deno.readTextFile(join(repo, "habits.py"));
        assert.match(source, /if \(today - previous\)\.days == 1:/);
        assert.doesNotMatch(source, /today\.day - previous\.day/);
        const after = await run("python3", PYTEST, repo);
        assert.equal(after.code, 0, after.stdout);
        assert.deepEqual(await leftovers(tmp), [], "no tmux server or folder is left behind");
      },
    });
  }
}

Deno.test({
  name: "exec with terminus-2 cannot change files in a read-only session" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using dirs = tempDirs();
    const repo = await dirs.add(fixtureRepo("habits"));
    const step = (o: Record<string, unknown>) =>
      JSON.stringify({ analysis: "", plan: "", commands: [], ...o });
    await using fake = await startFakeProvider([
      { reply: { text: step({ commands: [{ keystrokes: "touch made.txt\n", duration: 0.1 }] }) } },
      { reply: { text: step({ task_complete: true }) } },
      { reply: { text: step({ analysis: "Tried.", task_complete: true }) } },
    ]);
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    const result = await interpreter(
      ["exec", "--harness", "terminus-2", "-s", "read-only", "make a file"],
      { cwd: repo, home },
    );
    assert.deepEqual(fake.failures, []);
    assert.equal(result.code, 0, result.stderr);
    await assert.rejects(() => Deno.stat(join(repo, "made.txt")), Deno.errors.NotFound);
  },
});
