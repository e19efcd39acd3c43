/**
 * `interpreter eval` on a real terminal (a tmux pane): it says what it will run and asks before
 * starting; answered no, it runs nothing and leaves no job folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeHome, fixtureRepo, tempDirs } from "./_harness_env.ts";
import { HAS_TMUX, Pane, SKIP } from "./_tmux_pane.ts";

Deno.test({
  name: "eval on a terminal says what it will run and asks; answered no, it runs nothing" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using dirs = tempDirs();
    const repo = await dirs.add(fixtureRepo("habits"));
    // No request is made: the answer comes before any run.
    const home = await dirs.add(fakeHome("http://127.0.0.1:9/v1", "chat"));
    await using pane = await Pane.open(
      ["eval", "--harness", "native", "--check", "true", "x"],
      { repo, home },
    );
    const asked = await pane.waitFor(/Start\? \[Y\/n\] ?$/m, 0, 60_000);
    assert.match(
      asked,
      /^1 run \(1 task × 1 harness×model pair × 1 repetition\), 1 at a time$/m,
    );
    assert.equal(await Deno.stat(join(home, "evals")).then(() => true, () => false), false);

    const from = await pane.mark();
    await pane.type("n");
    const after = await pane.waitFor(/^EXIT:\d+$/m, from);
    assert.match(after, /^Nothing was run\.$/m);
    assert.match(after, /^EXIT:1$/m);
    const jobs = await Array.fromAsync(Deno.readDir(join(home, "evals"))).catch(() => []);
    assert.deepEqual(jobs, [], "no job folder was made");
    assert.doesNotMatch(after, /Job folder:/);
  },
});
