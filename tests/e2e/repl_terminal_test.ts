import assert from "node:assert/strict";
import { join } from "node:path";
import { type ScriptTurn } from "../fake_provider/server.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";
import { until } from "./_poll.ts";

/** The harness switch re-expresses earlier tool calls under the new harness's tool names. */
const setup = (turns: ScriptTurn[], chunkDelayMs = 0) =>
  replEnv(turns, { chunkDelayMs, allowTranslatedCalls: true });

const ADD_NOTES = "*** Begin Patch\n*** Add File: notes.txt\n+remember the milk\n*** End Patch\n";

Deno.test({
  name: "the REPL runs a task with a tool and an edit, shows /diff and /status, and switches " +
    "harness on the same history" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      {
        expect: { user_contains: "take notes", tools_include: ["exec_command"] },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: "ls habits.py" } }] },
      },
      {
        expect: { last_tool_result_contains: "habits.py" },
        reply: { tool_calls: [{ name: "apply_patch", args: { input: ADD_NOTES } }] },
      },
      { reply: { text: "Noted the milk." } },
      {
        expect: { user_contains: "and again", tools_include: ["Bash", "Edit"] },
        reply: { text: "Claude tools now." },
      },
    ]);
    await using pane = await Pane.open(["-s", "workspace-write"], env);
    const banner = await pane.waitFor(PROMPT_LINE);
    assert.match(banner, /model fake-model · provider fake · harness native · sandbox/);

    let from = await pane.mark();
    await pane.type("take notes please");
    let out = await pane.settled(from);
    assert.match(out, /\$ ls habits\.py\n {2}✓ exit 0 in /);
    assert.match(out, /add notes\.txt[\s\S]*\+remember the milk/);
    assert.match(out, /Noted the milk\./);
    assert.equal(await Deno.readTextFile(join(env.repo, "notes.txt")), "remember the milk\n");

    from = await pane.mark();
    await pane.type("/diff");
    out = await pane.settled(from);
    assert.match(out, /notes\.txt[\s\S]*\+remember the milk/);

    from = await pane.mark();
    await pane.type("/status");
    out = await pane.settled(from);
    assert.match(out, /^provider: +fake \(chat\)$/m);
    assert.match(out, /^harness: +native$/m);
    assert.match(out, /^context: +\d+ \/ \d+ tokens/m);

    from = await pane.mark();
    await pane.type("/harness");
    out = await pane.settled(from);
    assert.match(out, /^\* native +Native \(Codex tools\)/m);
    assert.match(out, /\(automatic\)/);

    from = await pane.mark();
    await pane.type("/harness claude-code");
    await pane.settled(from);
    from = await pane.mark();
    await pane.type("and again");
    out = await pane.settled(from);
    assert.match(out, /Claude tools now\./);
    assert.deepEqual(env.fake.failures, []);
    const last = JSON.stringify(env.fake.requests.at(-1)!.body);
    assert.match(last, /take notes please[\s\S]*ls habits\.py[\s\S]*Noted the milk/);

    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "the REPL asks inline: n declines with a note, y runs once, a runs for the session" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const touch = (name: string) => ({
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: `touch ${name}` } }] },
    });
    await using env = await setup([
      touch("a.txt"),
      { expect: { last_tool_result_contains: "saying: use another name" }, ...touch("b.txt") },
      touch("c.txt"),
      touch("c.txt"),
      { reply: { text: "All touched." } },
    ]);
    await using pane = await Pane.open(["-a", "untrusted", "-s", "workspace-write"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("touch things");
    await pane.waitFor(
      /touch a\.txt[\s\S]*why:[\s\S]*\[y\] yes once {2}\[a\] yes for this session/,
      from,
    );
    await pane.type("n use another name");
    await pane.waitFor(
      /declined: use another name[\s\S]*touch b\.txt[\s\S]*\[y\] yes once[^\n]*› *$/m,
      from,
    );
    await pane.type("y", false);
    await pane.waitFor(/approved once[\s\S]*touch c\.txt[\s\S]*\[y\] yes once[^\n]*› *$/m, from);
    await pane.type("a", false);
    const out = await pane.waitFor(/All touched\./, from);
    assert.equal(out.match(/\[y\] yes once/g)?.length, 3, "the second touch c.txt is not asked");
    assert.equal(await Deno.stat(join(env.repo, "a.txt")).then(() => true, () => false), false);
    await Deno.stat(join(env.repo, "b.txt"));
    await Deno.stat(join(env.repo, "c.txt"));
    assert.deepEqual(env.fake.failures, []);

    await pane.settled(from);
    await pane.key("C-c");
    await pane.waitFor(/Ctrl-C again/, from);
    await pane.key("C-c");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

/** Live processes of process group `pgid`. */
async function groupMembers(pgid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-g", String(pgid)] }).output();
  const pids = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
  const states = await Promise.all(
    pids.map((pid) => Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "")),
  );
  return pids.filter((_, i) => states[i] !== "" && !/^\d+ \(.*\) Z/.test(states[i]));
}

Deno.test({
  name: "Ctrl-C during sleep 30 in the REPL kills its process group and brings the prompt back" +
    SKIP,
  ignore: !HAS_TMUX || Deno.build.os !== "linux",
  async fn() {
    await using env = await setup([
      {
        reply: {
          tool_calls: [{ name: "exec_command", args: { cmd: "echo $$ > group.pid; sleep 30" } }],
        },
      },
      { expect: { user_contains: "still there" }, reply: { text: "Yes, still here." } },
    ]);
    await using pane = await Pane.open(["--yolo"], env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("sleep a while");
    const pidFile = join(env.repo, "group.pid");
    await until(
      "the command to start",
      () => Deno.readTextFile(pidFile).then((t) => t.endsWith("\n"), () => false),
      15_000,
    ).catch(async (error) => {
      throw new Error(`${error.message}:\n${await pane.screen()}`);
    });
    const leader = Number((await Deno.readTextFile(pidFile)).trim());
    assert.notDeepEqual(await groupMembers(leader), []);
    await pane.key("C-c");
    const out = await pane.settled(from);
    assert.match(out, /Interrupted/);
    assert.deepEqual(await groupMembers(leader), [], "the sleep's process group is gone");

    from = await pane.mark();
    await pane.type("are you still there?");
    assert.match(await pane.settled(from), /Yes, still here\./);
    assert.deepEqual(env.fake.failures, [], "the interrupted call got a result");
    await pane.key("C-d");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "the REPL keeps what is typed during a turn for the next prompt and sends a paste as " +
    "one message" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      { reply: { text: "A slow answer that streams in many small pieces, one after another." } },
      { expect: { user_contains: "typed ahead" }, reply: { text: "Got the typed one." } },
      { expect: { user_contains: "pasted one\npasted two" }, reply: { text: "Got the paste." } },
    ], 60);
    await using pane = await Pane.open(["-s", "read-only"], env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("go slowly");
    await pane.waitFor(/A slow/, from);
    await pane.type("typed ahead", false);
    // The status line comes between the answer and the next prompt.
    const out = await pane.waitFor(
      /one after another\.\n[^\n]* · native · [^\n]*\n› typed ahead/,
      from,
    );
    assert.doesNotMatch(out, /A slow[^\n]*typed ahead/, "type-ahead is not echoed into the answer");
    await pane.key("Enter");
    await pane.waitFor(/Got the typed one\./, from);
    await pane.settled(from);

    from = await pane.mark();
    await pane.paste("pasted one\npasted two");
    await pane.key("Enter");
    await pane.waitFor(/Got the paste\./, from);
    assert.deepEqual(env.fake.failures, []);
    assert.equal(env.fake.remaining(), 0);
    await pane.type("/quit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "the REPL puts the model's questions (Kimi's, then Codex's request_user_input) to the " +
    "user and sends the picked option back" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const ask = {
      questions: [{
        question: "Which database?",
        header: "DB",
        options: [{ label: "postgres" }, { label: "sqlite" }],
      }],
    };
    // Then Codex's request_user_input (native), answered in the same process.
    const codex = {
      questions: [{
        id: "database",
        header: "Store",
        question: "Which store?",
        options: [{ label: "redis", description: "in memory" }, {
          label: "files",
          description: "on disk",
        }],
      }],
    };
    await using env = await setup([
      { reply: { tool_calls: [{ name: "AskUserQuestion", args: ask }] } },
      { expect: { last_tool_result_contains: "sqlite" }, reply: { text: "Using sqlite." } },
      {
        expect: { tools_include: ["request_user_input"] },
        reply: { tool_calls: [{ name: "request_user_input", args: codex }] },
      },
      {
        expect: { last_tool_result_contains: '{"answers":{"database":{"answers":["files"]}}}' },
        reply: { text: "Using files." },
      },
    ]);
    await using pane = await Pane.open(["--harness", "kimi-code", "set up storage"], env);
    await pane.waitFor(/DB: Which database\?[\s\S]*2\) sqlite[\s\S]*answer › $/m);
    await pane.type("2");
    await pane.waitFor(/Using sqlite\./);
    let from = await pane.mark();
    await pane.type("/harness native");
    await pane.settled(from);
    from = await pane.mark();
    await pane.type("and a store");
    await pane.waitFor(/Store: Which store\?[\s\S]*2\) files[\s\S]*answer › $/m, from);
    await pane.type("2");
    await pane.waitFor(/Using files\./, from);
    assert.deepEqual(env.fake.failures, []);
  },
});
