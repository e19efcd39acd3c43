/**
 * `/undo` and `/rewind` in the REPL on a real terminal: files an edit and a command wrote are
 * restored, the conversation the next request sends follows, and a file the user changed is
 * kept unless they say yes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const DOC = '"""Habit tracking helpers."""';
const PATCH =
  `*** Begin Patch\n*** Update File: habits.py\n@@\n-${DOC}\n+"""Patched."""\n*** End Patch\n`;
const command = (cmd: string) => ({
  reply: { tool_calls: [{ name: "exec_command", args: { cmd } }] },
});
const patch = { reply: { tool_calls: [{ name: "apply_patch", args: { input: PATCH } }] } };
const text = (reply: string) => ({ reply: { text: reply } });

/** The user messages of request `i`, as sent. */
function prompts(env: { fake: { requests: Array<{ body: unknown }> } }, i: number): string {
  return JSON.stringify(env.fake.requests.at(i)!.body);
}

/** Types `line` and returns the screen up to the prompt coming back. */
async function run(pane: Pane, line: string): Promise<string> {
  const from = await pane.mark();
  await pane.type(line);
  return await pane.settled(from);
}

Deno.test({
  name: "/undo takes back an apply_patch edit, then a command's new file, and the turns" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      command("echo x > made.txt"),
      text("Made it."),
      patch,
      text("Patched."),
      text("Fresh."),
    ]);
    await using pane = await Pane.open(["-s", "workspace-write"], env);
    await pane.waitFor(PROMPT_LINE);
    await run(pane, "make a file");
    await run(pane, "patch the docstring");
    assert.equal(await env.read("made.txt"), "x\n");
    assert.match((await env.read("habits.py"))!, /Patched/);

    let out = await run(pane, "/undo");
    assert.match(out, /Undid "patch the docstring": restored habits\.py; took 1 turn out/);
    assert.match((await env.read("habits.py"))!, /Habit tracking helpers/);
    assert.equal(await env.read("made.txt"), "x\n");

    out = await run(pane, "/undo");
    assert.match(out, /Undid "make a file": removed made\.txt; took 1 turn out/);
    assert.equal(await env.read("made.txt"), undefined);

    out = await run(pane, "what now");
    assert.match(out, /Fresh\./);
    assert.doesNotMatch(prompts(env, -1), /make a file|patch the docstring/);
    assert.deepEqual(env.fake.failures, []);
  },
});

Deno.test({
  name: "/rewind to turn 1: code only (a user edit kept on no), conversation only, both" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([
      command("echo x > made.txt"),
      text("Made it."),
      patch,
      text("Patched."),
      text("Still here."),
      text("Forgot."),
      command("echo y > again.txt"),
      text("Again."),
      text("Clean slate."),
    ]);
    await using pane = await Pane.open(["-s", "workspace-write"], env);
    await pane.waitFor(PROMPT_LINE);
    await run(pane, "make a file");
    await run(pane, "patch the docstring");
    await Deno.writeTextFile(join(env.repo, "made.txt"), "mine\n");

    // Code only, picked from the list; made.txt changed since the agent wrote it: kept on no.
    const from = await pane.mark();
    await pane.type("/rewind");
    let out = await pane.waitFor(/Turn number \(Enter to cancel\) › $/m, from);
    assert.match(out, /^ {2}1 {2}make a file {2}· made\.txt$/m);
    assert.match(out, /^ {2}2 {2}patch the docstring {2}· habits\.py$/m);
    await pane.type("1");
    await pane.waitFor(/Restore code, conversation or both\? \(Enter to cancel\) › $/m, from);
    await pane.type("code");
    await pane.waitFor(
      /made\.txt changed since the agent left it\nOverwrite\? \[y\/N\] › $/m,
      from,
    );
    await pane.type("n");
    out = await pane.settled(from);
    assert.match(out, /Rewound the code to before turn 1 "make a file": restored habits\.py/);
    assert.match(out, /Kept your changes to made\.txt/);
    assert.equal(await env.read("made.txt"), "mine\n");
    assert.match((await env.read("habits.py"))!, /Habit tracking helpers/);
    await run(pane, "are you there");
    assert.match(prompts(env, -1), /make a file[\s\S]*patch the docstring[\s\S]*are you there/);

    // Conversation only: the files stay.
    out = await run(pane, "/rewind 1 conversation");
    assert.match(out, /Rewound the conversation to before turn 1 "make a file": took 3 turns out/);
    assert.equal(await env.read("made.txt"), "mine\n");
    await run(pane, "forget it");
    assert.doesNotMatch(prompts(env, -1), /make a file|patch the docstring|are you there/);

    // Both: the command's file goes, and so does the conversation.
    await run(pane, "make another");
    assert.equal(await env.read("again.txt"), "y\n");
    out = await run(pane, "/rewind 1 both");
    assert.match(out, /Rewound the code and conversation to before turn 1 "forget it": removed/);
    assert.equal(await env.read("again.txt"), undefined);
    out = await run(pane, "hello");
    assert.match(out, /Clean slate\./);
    assert.doesNotMatch(prompts(env, -1), /forget it|make another/);
    assert.deepEqual(env.fake.failures, []);
  },
});

Deno.test({
  name: "/undo lists a running background job and stops it only after a yes" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const bash = (command: string, background: boolean) => ({
      reply: {
        tool_calls: [{
          name: "Bash",
          args: { command, description: "run", run_in_background: background },
        }],
      },
    });
    await using env = await replEnv([
      bash("echo x > made.txt", false),
      bash("sleep 300", true),
      text("Started."),
    ]);
    await using pane = await Pane.open(["-s", "workspace-write", "--harness", "claude-code"], env);
    await pane.waitFor(PROMPT_LINE);
    await run(pane, "make a file and start a server");
    assert.equal(await env.read("made.txt"), "x\n");

    let from = await pane.mark();
    await pane.type("/undo");
    let out = await pane.waitFor(/Stop it and restore\? \[y\/N\] › $/m, from);
    assert.match(out, /This runs in the background and could change the files while they are/);
    assert.match(out, /^ {2}background job b[0-9a-f]{8}: sleep 300$/m);
    await pane.type("n");
    out = await pane.settled(from);
    assert.match(out, /Nothing was restored: background job b[0-9a-f]{8}: sleep 300 still runs/);
    assert.equal(await env.read("made.txt"), "x\n", "nothing restored on no");

    from = await pane.mark();
    await pane.type("/undo");
    await pane.waitFor(/Stop it and restore\? \[y\/N\] › $/m, from);
    await pane.type("y");
    out = await pane.settled(from);
    assert.match(out, /Undid "make a file and start a server": removed made\.txt; took 1 turn out/);
    assert.equal(await env.read("made.txt"), undefined);
    out = await run(pane, "/ps");
    assert.match(out, /b[0-9a-f]{8} {2}ended by SIGTERM/);
    assert.deepEqual(env.fake.failures, []);
  },
});
