import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo } from "./_harness_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

/** Every session file under `home`, by session id. */
async function sessionFiles(home: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      const id = entry.name.match(/-([0-9a-f-]{36})\.jsonl$/)?.[1];
      if (id) files.set(id, path);
    }
  };
  await walk(join(home, "sessions"));
  return files;
}

Deno.test({
  name: "/fork and interpreter fork --last continue in a copy and leave the original " +
    "byte-identical; /rename names show in /resume" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const fake = await startFakeProvider([
      { expect: { user_contains: "first task" }, reply: { text: "one" } },
      { expect: { user_contains: "second task" }, reply: { text: "two" } },
      { expect: { user_contains: "third task" }, reply: { text: "three" } },
    ]);
    const repo = await fixtureRepo("habits");
    const home = await fakeHome(fake.baseUrl, "chat");
    try {
      await using pane = await Pane.open([], { repo, home });
      await pane.waitFor(PROMPT_LINE);
      let from = await pane.mark();
      await pane.type("first task");
      await pane.settled(from);
      const [[original, originalFile]] = await sessionFiles(home);
      from = await pane.mark();
      await pane.type("/rename milk run");
      await pane.waitFor(/This session is now named "milk run"/, from);
      const before = await Deno.readFile(originalFile);

      from = await pane.mark();
      await pane.type("/fork");
      let out = await pane.settled(from);
      const forked = out.match(/Forked session \S+ into (\S+) "milk run \(fork\)"; you are now in/)
        ?.[1];
      assert.ok(forked, out);
      assert.match(out, new RegExp(`Forked session ${original} into`));
      assert.match(out, new RegExp(`resumed ${forked}`));
      from = await pane.mark();
      await pane.type("second task");
      await pane.settled(from);
      assert.match(JSON.stringify(fake.requests[1].body), /first task[\s\S]*one[\s\S]*second/);
      assert.deepEqual(await Deno.readFile(originalFile), before, "the original is unchanged");
      const files = await sessionFiles(home);
      assert.match(await Deno.readTextFile(files.get(forked)!), /second task/);

      from = await pane.mark();
      await pane.type("/resume");
      out = await pane.waitFor(/Resume which session\?[\s\S]*milk run · first task/, from);
      assert.match(out, /milk run \(fork\) · first task/);
      await pane.key("Escape");
      await pane.waitFor(/resume cancelled\n› $/m, from);
      await pane.type("/exit");
      await pane.waitFor(/^EXIT:0$/m, from);
      const forkBytes = await Deno.readFile(files.get(forked)!);

      await using again = await Pane.open(["fork", "--last"], { repo, home });
      out = await again.waitFor(PROMPT_LINE);
      const copy = out.match(new RegExp(`Forked session ${forked} into (\\S+) `))?.[1];
      assert.ok(copy, out);
      from = await again.mark();
      await again.type("third task");
      await again.settled(from);
      assert.match(JSON.stringify(fake.requests[2].body), /second task[\s\S]*two[\s\S]*third/);
      assert.deepEqual(await Deno.readFile(files.get(forked)!), forkBytes);
      assert.deepEqual(await Deno.readFile(originalFile), before);
      assert.equal((await sessionFiles(home)).size, 3);
      assert.deepEqual(fake.failures, []);
    } finally {
      await fake.close();
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  },
});
