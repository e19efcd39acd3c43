import assert from "node:assert/strict";
import type { ScriptTurn } from "../fake_provider/server.ts";
import { interpreter } from "./_harness_env.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

/** One turn's usage: 5000 fresh input tokens at $2, 2000 cached at $0.5, 500 output at $8 (1M). */
const USAGE = { input_tokens: 7000, output_tokens: 500, cached_tokens: 2000 };
/** gpt-4.1 with that usage in a 10000-token window. */
const STATUS = "gpt-4.1 · native · 75% context · 7.0k in / 500 out · $0.0150";

/**
 * The built-in `openai` provider pointed at the fake server, so that its model list and prices
 * are the catalog's: gpt-4.1 costs $2 / $8 / $0.5 (cached) per million tokens.
 */
function setup(turns: ScriptTurn[]) {
  return replEnv(turns, {
    homeConfig: (baseUrl) =>
      'model = "gpt-4.1"\nmodel_provider = "openai"\nmodel_context_window = 10000\n' +
      `[model_providers.openai]\nbase_url = "${baseUrl}"\nwire_api = "chat"\n` +
      'env_key = "FAKE_API_KEY"\n',
  });
}

Deno.test({
  name: "the REPL shows the status line after a turn, and /status the tokens and cost" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([{ reply: { text: "Counted.", usage: USAGE } }]);
    await using pane = await Pane.open(["-s", "read-only"], env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("count tokens");
    let out = await pane.settled(from);
    assert.match(out, new RegExp(`Counted\\.\\n${STATUS.replace(/[.$]/g, "\\$&")}\\n`));

    from = await pane.mark();
    await pane.type("/status");
    out = await pane.settled(from);
    assert.match(out, /^tokens: +7000 in \(2000 cached\), 500 out$/m);
    assert.match(out, /^cost: +\$0\.0150$/m);
    assert.match(out, /^context: +7500 \/ 10000 tokens \(75%\)$/m);
    assert.deepEqual(env.fake.failures, []);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "/model refuses a typo naming the nearest model, forces NAME!, and picks with the keys" +
    SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await setup([
      { reply: { text: "From the picked one." } },
      { reply: { text: "From the forced one." } },
      { reply: { text: "From o4-mini." } },
    ]);
    await using pane = await Pane.open(["-s", "read-only"], env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("/model gpt-4.1-mnii");
    let out = await pane.settled(from);
    assert.match(out, /error: Unknown model "gpt-4\.1-mnii" for provider "openai"/);
    assert.match(out, /hint: Did you mean \/model gpt-4\.1-mini\b/);

    // Arrow keys: the model in use is marked at first; Down marks the next one.
    from = await pane.mark();
    await pane.type("/model");
    await pane.waitFor(/^› openai\/gpt-4\.1 /m, from);
    await pane.key("Down");
    const next = /^› openai\/(?!gpt-4\.1 )(\S+)/m;
    const marked = (await pane.waitFor(next, from)).match(next)![1];
    await pane.key("Enter");
    out = await pane.settled(from);
    assert.match(out, new RegExp(`model: openai/${marked.replaceAll(".", "\\.")}\\n`));
    assert.doesNotMatch(out, /filter:/, "the picker is erased");
    await pane.type("again");
    await pane.waitFor(/From the picked one\./, from);

    from = await pane.mark();
    await pane.type("/model my-own-model!");
    out = await pane.settled(from);
    assert.equal(out.match(/model: openai\/my-own-model/g)?.length, 1, "the line, once");
    await pane.type("hello");
    await pane.waitFor(/From the forced one\./, from);

    // Typing filters; a reasoning model then asks for the effort.
    from = await pane.mark();
    await pane.type("/model");
    await pane.waitFor(/^filter:/m, from);
    await pane.type("o4-mini", false);
    await pane.waitFor(/^› openai\/o4-mini /m, from);
    await pane.key("Enter");
    await pane.waitFor(/Reasoning effort of o4-mini[\s\S]*^› medium$/m, from);
    await pane.key("Down");
    await pane.waitFor(/^› high$/m, from);
    await pane.key("Enter");
    out = await pane.settled(from);
    assert.match(out, /model: openai\/o4-mini \(effort high\)/);
    await pane.type("last one");
    await pane.waitFor(/From o4-mini\./, from);

    const models = env.fake.requests.map((r) => (r.body as { model: string }).model);
    assert.deepEqual(models, [marked, "my-own-model", "o4-mini"]);
    assert.equal(
      (env.fake.requests[2].body as { reasoning_effort?: string }).reasoning_effort,
      "high",
    );
    assert.deepEqual(env.fake.failures, []);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test("exec ends stderr with the status line, or with tokens used when it is off", async () => {
  await using env = await setup([
    { reply: { text: "Done.", usage: USAGE } },
    { reply: { text: "Done again.", usage: USAGE } },
  ]);
  const at = { cwd: env.repo, home: env.home };
  const on = await interpreter(["exec", "-s", "read-only", "go"], at);
  assert.equal(on.code, 0, on.stderr);
  assert.equal(on.stdout, "Done.\n");
  assert.equal(on.stderr.trimEnd().split("\n").at(-1), STATUS);
  const off = await interpreter(["exec", "-s", "read-only", "-c", "status_line=false", "go"], at);
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stderr, /^tokens used: 7500$/m);
  assert.doesNotMatch(off.stderr, / · native · /);
  assert.deepEqual(env.fake.failures, []);
});
