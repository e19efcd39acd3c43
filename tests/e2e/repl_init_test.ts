import assert from "node:assert/strict";
import { join } from "node:path";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const PYTEST = "python3 -m pytest -q -p no:cacheprovider";
const DRAFT = "*** Begin Patch\n*** Add File: AGENTS.init.md\n+# Habit tracker\n+\n" +
  `+- Test: \`${PYTEST}\`\n*** End Patch\n`;

Deno.test({
  name: "/init has the model study the habit tracker and write AGENTS.md; a second /init " +
    "answered no leaves it and sends nothing" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      {
        expect: { user_contains: "write a first AGENTS.md" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: PYTEST } }] },
      },
      {
        expect: { last_tool_result_contains: "test_habits.py" },
        reply: { tool_calls: [{ name: "apply_patch", args: { input: DRAFT } }] },
      },
      { reply: { text: "Wrote AGENTS.md with the test command I ran." } },
    ]);
    await using pane = await Pane.open(["--harness", "native"], { repo: env.repo, home: env.home });
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("/init");
    let out = await pane.settled(from);
    assert.match(out, /Wrote AGENTS\.md with the test command I ran\./);
    assert.match(out, new RegExp(`Wrote ${join(env.repo, "AGENTS.md")}`));
    const written = `# Habit tracker\n\n- Test: \`${PYTEST}\`\n`;
    assert.equal(await env.read("AGENTS.md"), written);
    assert.equal(await env.read("AGENTS.init.md"), undefined, "the draft was moved into place");
    assert.deepEqual(env.fake.failures, []);
    assert.equal(env.fake.remaining(), 0);

    from = await pane.mark();
    await pane.type("/init");
    await pane.waitFor(/AGENTS\.md exists\. Replace it with a new one\? \[y\/N\] › $/m, from);
    await pane.type("n");
    out = await pane.settled(from);
    assert.match(out, /Kept .*AGENTS\.md as it is; nothing was sent to the model/);
    assert.equal(env.fake.requests.length, 3, "no request for the declined /init");
    assert.equal(await env.read("AGENTS.md"), written);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});
