/**
 * The accessible plain mode in a real pseudo-terminal: a whole session (a prompt, a command that
 * needs approval answered by number, the /model picker answered by number, /status) whose raw
 * byte stream holds no escape sequence at all and no carriage return that rewrites a line; and
 * TERM=dumb turning the mode on without the flag.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptTurn } from "../fake_provider/server.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, SKIP } from "./_tmux_pane.ts";

/** The prompt of plain mode, waiting at the end of the screen. */
const PLAIN_PROMPT = /^You: $(?![\s\S]*\S)/m;

/** How long the REPL may take to start (longer than a step: the launcher may compile first). */
const START_MS = 60_000;

/** The built-in `openai` provider pointed at the fake server, for the catalog's model list. */
function setup(turns: ScriptTurn[]) {
  return replEnv(turns, {
    homeConfig: (baseUrl) =>
      'model = "gpt-4.1"\nmodel_provider = "openai"\n' +
      `[model_providers.openai]\nbase_url = "${baseUrl}"\nwire_api = "chat"\n` +
      'env_key = "FAKE_API_KEY"\n',
  });
}

/** What in `raw` moves the cursor, erases, colors or rewrites a line; empty when nothing does. */
function escapes(raw: string): string[] {
  // deno-lint-ignore no-control-regex -- looking for the terminal's control sequences
  const found = raw.match(/\x1b.{0,8}|\r(?!\n)/g) ?? [];
  return found.map((s) => JSON.stringify(s));
}

Deno.test({
  name: "--plain: a whole session with role labels and numbered choices, and no escape " +
    "sequence in its byte stream" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      {
        expect: { user_contains: "make a note" },
        reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch note.txt" } }] },
      },
      { expect: { last_tool_result_contains: "" }, reply: { text: "The note is there." } },
      { reply: { text: "Answered by the mini model." } },
    ]);
    const raw = join(env.home, "raw.log");
    await using pane = await Pane.open(["--plain", "-a", "untrusted", "-s", "workspace-write"], {
      ...env,
      vars: { COLUMNS: "120" },
    });
    await pane.record(raw);
    const banner = await pane.waitFor(PLAIN_PROMPT, 0, START_MS);
    assert.match(banner, /^\/help lists the commands; Ctrl-C stops a turn; Ctrl-D leaves$/m);

    let from = await pane.mark();
    await pane.type("make a note");
    let out = await pane.waitFor(/^Answer with a number › $/m, from);
    assert.match(out, /Run touch note\.txt\?/);
    assert.match(out, /^ {2}1\) yes once\n {2}2\) yes for this session\n {2}3\) no/m);
    await pane.type("1");
    out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^approved once$/m);
    assert.match(out, /^Command: touch note\.txt$/m);
    assert.match(out, /^Result: exit 0 in /m);
    assert.match(out, /^Agent: The note is there\.$/m);
    await Deno.stat(join(env.repo, "note.txt"));

    from = await pane.mark();
    await pane.type("/model");
    out = await pane.waitFor(/^Model: a number \(Enter cancels\) › $/m, from);
    const number = out.match(/^ +(\d+)\) openai\/gpt-4\.1-mini — /m)?.[1];
    assert.ok(number, `gpt-4.1-mini is listed with a number:\n${out}`);
    await pane.type(number);
    out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^model: openai\/gpt-4\.1-mini$/m);

    from = await pane.mark();
    await pane.type("which model");
    out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^Agent: Answered by the mini model\.$/m);

    from = await pane.mark();
    await pane.type("/status");
    out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^model: +gpt-4\.1-mini/m);

    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
    assert.deepEqual(env.fake.failures, []);
    const models = env.fake.requests.map((r) => (r.body as { model: string }).model);
    assert.deepEqual(models, ["gpt-4.1", "gpt-4.1", "gpt-4.1-mini"]);
    const bytes = await Deno.readTextFile(raw);
    assert.match(bytes, /Agent: The note is there\./, "the log holds the session");
    assert.deepEqual(escapes(bytes), []);
  },
});

Deno.test({
  name: "TERM=dumb turns the plain mode on without the flag; Ctrl-C stops a turn" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      { reply: { text: "Plain by default." } },
      { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "sleep 30" } }] } },
      { expect: { user_contains: "still there" }, reply: { text: "Still here." } },
    ]);
    const raw = join(env.home, "raw.log");
    await using pane = await Pane.open(["--yolo"], { ...env, vars: { TERM: "dumb" } });
    await pane.record(raw);
    await pane.waitFor(PLAIN_PROMPT, 0, START_MS);
    let from = await pane.mark();
    await pane.type("say something");
    let out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^Agent: Plain by default\.$/m);

    from = await pane.mark();
    await pane.type("sleep a while");
    await pane.waitFor(/^Command: sleep 30$/m, from);
    await pane.key("C-c");
    out = await pane.waitFor(PLAIN_PROMPT, from);
    assert.match(out, /^Interrupted$/m);
    from = await pane.mark();
    await pane.type("are you still there?");
    assert.match(await pane.waitFor(PLAIN_PROMPT, from), /^Agent: Still here\.$/m);

    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
    assert.deepEqual(env.fake.failures, []);
    assert.deepEqual(escapes(await Deno.readTextFile(raw)), []);
  },
});
