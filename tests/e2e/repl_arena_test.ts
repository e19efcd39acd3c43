/**
 * `/arena` in a real pseudo-terminal: the REPL runs `interpreter arena` on its terminal (two
 * contestants on the habit tracker against the scripted provider), the arena's picker takes
 * "continue with a", a's fix lands in the working tree, and the next prompt continues a's
 * conversation with a's harness.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { loadScript } from "../fake_provider/script.ts";
import { EVAL_HARNESS_TOOLS, evalRoutes } from "./_eval_env.ts";
import { fakeHome, fixtureRepo, REPO, tempDirs } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const CHECK = "python3 -m pytest -q -p no:cacheprovider";
const NEXT_PROMPT = "now explain the fix in one line";

/** Native's fixer, then one more turn: the answer to the prompt typed after continuing. */
async function continuedNative() {
  const fixer = join(REPO, "tests", "fixtures", "scripts", "eval", "fixer_native.jsonl");
  return {
    model: "fake-model",
    tools_include: EVAL_HARNESS_TOOLS.native,
    script: [
      ...await loadScript(fixer),
      {
        expect: { user_contains: NEXT_PROMPT, tools_include: EVAL_HARNESS_TOOLS.native },
        reply: { text: "It compares whole dates now." },
      },
    ],
  };
}

Deno.test({
  name: "/arena runs the arena on the REPL's terminal and continues the contestant picked " +
    "with its harness and conversation, its fix in the working tree" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using dirs = tempDirs();
    const routes = [await continuedNative(), ...await evalRoutes({ minimal: "fumbler" })];
    await using fake = startFakeProvider([], { routes });
    const repo = await dirs.add(fixtureRepo("habits"));
    const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
    const tmp = await dirs.add(Deno.makeTempDir({ prefix: "oi-repl-arena-tmp-" }));
    const vars = { TMPDIR: tmp, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };
    await using pane = await Pane.open([], { repo, home, vars });
    await pane.waitFor(PROMPT_LINE);

    let from = await pane.mark();
    await pane.type(`/arena --harness native,minimal --check "${CHECK}" fix the streak bug`);
    await pane.waitFor(/Apply which\? \[a-b\].*continue with X/, from, 120_000);
    assert.equal(
      await Deno.readTextFile(join(repo, "habits.py")).then((t) =>
        t.includes("(today - previous)")
      ),
      false,
      "nothing touches the working tree before the choice",
    );
    await pane.type("continue with a");
    const out = await pane.waitFor(
      /Continuing a \(native × fake-model\): session \S+/,
      from,
      60_000,
    );
    const id = out.match(/Continuing a \(native × fake-model\): session (\S+)/)![1];
    await pane.settled(from);
    assert.match(await Deno.readTextFile(join(repo, "habits.py")), /\(today - previous\)\.days/);

    from = await pane.mark();
    await pane.type(NEXT_PROMPT);
    await pane.waitFor(/It compares whole dates now\./, from);
    await pane.settled(from);
    const last = JSON.stringify(fake.requests.at(-1)!.body);
    assert.match(last, new RegExp(NEXT_PROMPT));
    assert.match(last, /"exec_command"/, "the harness of contestant a (native)");
    assert.match(last, /fix the streak bug[\s\S]*Fixed longest_streak[\s\S]*now explain/);
    assert.deepEqual(fake.failures, []);

    from = await pane.mark();
    await pane.type("/status");
    await pane.waitFor(new RegExp(`session:\\s+${id}`), from);
    const left = await Array.fromAsync(Deno.readDir(tmp), (e) => e.name);
    assert.deepEqual(left.filter((name) => name.startsWith("oi-arena-handoff-")), []);
  },
});
