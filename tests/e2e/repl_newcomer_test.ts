import assert from "node:assert/strict";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

Deno.test({
  name: "the REPL says a model's context window is a guess once, not again at /new" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const fake = await startFakeProvider([]);
    const repo = await fixtureRepo("habits");
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      await using pane = await Pane.open(["-s", "read-only"], { repo, home });
      await pane.waitFor(PROMPT_LINE);
      const from = await pane.mark();
      await pane.type("/new");
      await pane.settled(from);
      const screen = await pane.screen();
      assert.equal(screen.match(/harness native/g)?.length, 2, "/new printed the banner again");
      assert.equal(screen.match(/fake-model is not in the model catalog/g)?.length, 1, screen);
    } finally {
      await fake.close();
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
