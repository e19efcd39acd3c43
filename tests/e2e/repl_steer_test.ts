/**
 * Issue 34 items 7 and 10 in a real terminal: a line typed during a turn steers it (Enter) or
 * waits as the next prompt (Tab); Ctrl-D names the command that resumes the session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { until } from "./_poll.ts";

/** A command that runs until the test creates `go.flag`; it leaves `started.flag` first. */
const HELD = "touch started.flag; while [ ! -f go.flag ]; do sleep 0.1; done; echo released";

/** Waits until the held command runs, types `keys` (then `key`), and lets the command end. */
async function typeDuring(repo: string, pane: Pane, text: string, key: string): Promise<void> {
  await until(
    "the command to start",
    () => Deno.stat(join(repo, "started.flag")).then(() => true, () => false),
    15_000,
  ).catch(async (error) => {
    throw new Error(`${error.message}:\n${await pane.screen()}`);
  });
  await pane.type(text, false);
  // Shown under the spinner as it is typed (the REPL has the keys before the command ends).
  await pane.waitFor(
    new RegExp(`› ${text} {2}\\(Enter: send into this turn · Tab: run after it\\)`),
  );
  await pane.key(key);
  await Deno.writeTextFile(join(repo, "go.flag"), "");
}

/** The user-written texts of a recorded Chat request, in order. */
function userTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
}

Deno.test({
  name: "Enter during a turn steers its next request; Ctrl-D says how to resume" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: HELD } }] } },
      {
        expect: { user_contains: "use tabs, not spaces", last_tool_result_contains: "released" },
        reply: { text: "Switching to tabs." },
      },
    ], { config: 'harness = "native"' });
    await using pane = await Pane.open(["--yolo"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("format the file");
    await typeDuring(env.repo, pane, "use tabs, not spaces", "Enter");
    const out = await pane.settled(from);
    assert.deepEqual(env.fake.failures, []);
    assert.match(out, /released[\s\S]*↳ steered: use tabs, not spaces\n[\s\S]*Switching to tabs\./);
    assert.equal(env.fake.requests.length, 2, "the steered line made no turn of its own");
    const second = userTexts(env.fake.requests[1].body);
    assert.match(second.at(-1)!, /use tabs, not spaces/, "it is the request's last user message");
    const end = await pane.mark();
    await pane.key("C-d");
    const left = await pane.waitFor(/^EXIT:0$/m, end);
    const id = left.match(/To resume this session: interpreter resume (\S+)/)?.[1];
    assert.ok(id, left);
    // The session file has the steered message: resuming shows it in the recap.
    await using again = await Pane.open(["resume", id, "--yolo"], env);
    await again.waitFor(
      /\$ touch started[^\n]*\n↳ steered: use tabs, not spaces\nSwitching to tabs\.\n[\s\S]*^› $/m,
    );
  },
});

Deno.test({
  name: "Tab during a turn queues the line as the next prompt, run after the turn" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: HELD } }] } },
      { expect: { user_contains: "list the files" }, reply: { text: "Listed." } },
      { expect: { user_contains: "then count them" }, reply: { text: "Counted." } },
    ], { config: 'harness = "native"' });
    await using pane = await Pane.open(["--yolo"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("list the files");
    await typeDuring(env.repo, pane, "then count them", "Tab");
    const out = await pane.waitFor(/Counted\.[\s\S]*^› $/m, from);
    assert.deepEqual(env.fake.failures, []);
    assert.match(out, /Listed\.[\s\S]*› then count them\n[\s\S]*Counted\./);
    assert.doesNotMatch(out, /steered/);
    assert.equal(env.fake.requests.length, 3);
  },
});

Deno.test({
  name: "resume: Esc cancels the picker; the recap shows each call as the live view did" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      {
        reply: {
          text: "Checking.",
          tool_calls: [
            { name: "exec_command", args: { cmd: "echo replayed" } },
            { name: "exec_command", args: { cmd: "exit 3" } },
          ],
        },
      },
      { reply: { text: "All done." } },
    ], { config: 'harness = "native"' });
    {
      await using live = await Pane.open(["--yolo"], env);
      await live.waitFor(PROMPT_LINE);
      await live.type("run it");
      const out = await live.waitFor(/All done\.[\s\S]*^› $/m);
      assert.match(out, /Checking\.\n\$ echo replayed\n[\s\S]*\n\$ exit 3\n {2}✗ exit 3/);
      await live.key("C-d");
      await live.waitFor(/^EXIT:0$/m);
    }
    {
      await using cancelled = await Pane.open(["resume"], env);
      await cancelled.waitFor(/Resume which session\?[\s\S]*run it/);
      await cancelled.key("Escape");
      await cancelled.waitFor(/resume cancelled\n[\s\S]*^EXIT:0$/m);
    }
    await using resumed = await Pane.open(["resume"], env);
    await resumed.waitFor(/Resume which session\?/);
    await resumed.key("Enter");
    const recap = await resumed.waitFor(/conversation so far[\s\S]*^── *$[\s\S]*^› $/m);
    assert.match(
      recap,
      /› run it\nChecking\.\n {2}\$ echo replayed\n {2}\$ exit 3 ✗ failed\nAll done\.\n/,
    );
  },
});
