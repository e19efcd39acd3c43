/**
 * Limits in every mode (issue 34 item 1): `--max-turns` and `--max-budget-usd` stop exec with a
 * line naming the limit (and `turn.failed` with its reason under `--json`), a hosted model with
 * no price is refused under a budget, and the REPL asks whether to go on with a higher limit.
 */
import assert from "node:assert/strict";
import { type ScriptTurn, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, fixtureRepo, interpreter } from "./_harness_env.ts";
import { replEnv } from "./_repl_env.ts";
import { pipedRepl } from "./_setups_repo.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

/** 100,000 prompt tokens a request: $0.20 at gpt-4.1's catalog price of $2 per million. */
const BIG = { input_tokens: 100_000, output_tokens: 10 };

/** A model that never stops calling tools (more turns than any limit here lets it make). */
function endlessTools(n = 8, usage?: typeof BIG): ScriptTurn[] {
  return Array.from({ length: n }, (_, i) => ({
    reply: {
      tool_calls: [{ name: "exec_command", args: { cmd: `echo step${i}` } }],
      ...(usage ? { usage } : {}),
    },
  }));
}

/** Runs exec in a fresh repository copy against `turns`; `config` goes into config.toml. */
async function exec(args: string[], turns: ScriptTurn[], config = "") {
  const repo = await fixtureRepo("habits");
  await using fake = startFakeProvider(turns);
  const home = await fakeHome(fake.baseUrl, "chat", config);
  try {
    const result = await interpreter(["exec", ...args, "work"], { cwd: repo, home });
    return { ...result, requests: fake.requests.length, failures: fake.failures };
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
}

/** The `turn.failed` event of a `--json` run's stdout. */
function turnFailed(stdout: string): { error: { message: string; reason?: string } } {
  const events = stdout.trim().split("\n").map((line) => JSON.parse(line));
  const failed = events.find((e) => e.type === "turn.failed");
  assert.ok(failed, stdout);
  return failed;
}

Deno.test("exec --max-turns 2 stops a model that never stops after two requests, naming the limit", async () => {
  const r = await exec(["--max-turns", "2"], endlessTools());
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.requests, 2);
  assert.match(r.stderr, /^error: Stopped at the turn limit \(max_turn_steps = 2\)/m);
  assert.match(r.stderr, /^hint: .*--max-turns 4 or -c max_turn_steps=4/m);
  assert.deepEqual(r.failures, []);

  const json = await exec(["--json", "--max-turns", "2"], endlessTools());
  assert.equal(json.code, 1, json.stderr);
  assert.equal(json.requests, 2);
  const failed = turnFailed(json.stdout);
  assert.equal(failed.error.reason, "max_turns");
  assert.match(failed.error.message, /max_turn_steps = 2/);
});

Deno.test("exec --max-budget-usd 0.30 at catalog prices and 100,000 prompt tokens a request stops after two", async () => {
  const args = ["-m", "gpt-4.1", "--max-budget-usd", "0.30"];
  const r = await exec(args, endlessTools(8, BIG));
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.requests, 2);
  assert.match(
    r.stderr,
    /^error: Stopped at the spending limit \(max_budget_usd = 0\.3\): the session has spent \$0\.40$/m,
  );
  assert.match(r.stderr, /^hint: .*--max-budget-usd 0\.81 or -c max_budget_usd=0\.81\)$/m);

  const json = await exec(["--json", ...args], endlessTools(8, BIG));
  assert.equal(json.code, 1, json.stderr);
  assert.ok(json.requests <= 2);
  assert.equal(turnFailed(json.stdout).error.reason, "max_budget_usd");
});

Deno.test("a budget refuses a hosted model without a price at start; [model_prices] prices it", async () => {
  const refused = await exec(["--max-budget-usd", "1"], endlessTools());
  assert.notEqual(refused.code, 0);
  assert.equal(refused.requests, 0);
  assert.match(refused.stderr, /fake-model \(provider fake\) has no price/);
  assert.match(refused.stderr, /\[model_prices\."fake-model"\]/);

  // $10 per million prompt tokens: each request costs $1; the budget of 1.5 stops after two.
  const prices = '[model_prices."fake-model"]\ninput = 10\noutput = 10\n';
  const priced = await exec(
    ["--max-budget-usd", "1.5"],
    endlessTools(8, BIG),
    `max_turns = 5\n${prices}`,
  );
  assert.equal(priced.code, 1, priced.stderr);
  assert.equal(priced.requests, 2);
  assert.match(priced.stderr, /max_budget_usd = 1\.5\): the session has spent \$2\.00$/m);
  // `max_turns` is read as max_turn_steps, with one warning naming it.
  assert.match(priced.stderr, /"max_turns" is read as max_turn_steps/);
});

Deno.test("a sub-agent's requests count against the budget and stop at it", async () => {
  const agent = {
    reply: {
      tool_calls: [{
        name: "Agent",
        args: { description: "delegate", prompt: "keep going", subagent_type: "general-purpose" },
      }],
    },
  };
  const bash = (i: number) => ({
    reply: { tool_calls: [{ name: "Bash", args: { command: `echo sub${i}` } }], usage: BIG },
  });
  const turns = [agent, ...Array.from({ length: 6 }, (_, i) => bash(i))];
  const r = await exec(
    ["--harness", "claude-code", "-m", "gpt-4.1", "--max-budget-usd", "0.30"],
    turns,
  );
  assert.equal(r.code, 1, r.stderr);
  // The parent's request, then the sub-agent's two: the third would pass the budget.
  assert.equal(r.requests, 3);
  assert.match(r.stderr, /^error: Stopped at the spending limit \(max_budget_usd = 0\.3\)/m);
  assert.deepEqual(r.failures, []);
});

Deno.test("exec rejects a --max-turns or --max-budget-usd that is not a positive number", async () => {
  for (const args of [["--max-turns", "1.5"], ["--max-budget-usd", "-1"]]) {
    const r = await exec(args, []);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${args[0]} takes .*not "${args[1]}"`));
    assert.equal(r.requests, 0);
  }
});

Deno.test({
  name: "the REPL stops a turn at its limit and goes on with a higher one when asked" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const turns: ScriptTurn[] = [
      ...endlessTools(1),
      { expect: { user_contains: "Go on with the task" }, ...endlessTools(1)[0] },
      { reply: { text: "All done." } },
    ];
    await using env = await replEnv(turns);
    const args = ["-a", "never", "-m", "gpt-4.1", "--max-turns", "1", "--max-budget-usd", "5"];
    await using pane = await Pane.open(args, env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("loop");
    await pane.waitFor(/Stopped at the turn limit \(max_turn_steps = 1\)/, from);
    await pane.waitFor(/Go on with a higher limit\? \[Y\/n, or a new max_turn_steps/, from);
    await pane.type("abc");
    await pane.waitFor(/"abc" is not a whole number/, from);
    await pane.type("3");
    await pane.waitFor(/max_turn_steps is now 3 for this session; going on/, from);
    await pane.settled(from);
    await pane.waitFor(/All done\./, from);
    assert.equal(env.fake.requests.length, 3);
    assert.deepEqual(env.fake.failures, []);

    from = await pane.mark();
    await pane.type("/status");
    const out = await pane.settled(from);
    assert.match(out, /^cost: +\$\d+\.\d{4} of the \$5 budget \(\d+%\), max_budget_usd$/m);

    // Under a budget, /model refuses a hosted model without a price, naming the table to add.
    from = await pane.mark();
    await pane.type("/model unpriced-model!");
    const refused = await pane.settled(from);
    assert.match(refused, /unpriced-model \(provider fake\) has no price/);
    assert.match(refused, /\[model_prices\."unpriced-model"\]/);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test("the first-run defaults are in the catalog: no window-guess note, a cost, a budget kept", async () => {
  for (
    const [provider, model, wire] of [
      ["openai", "gpt-6.2-sol", "chat"],
      ["anthropic", "claude-sonnet-5-5", "messages"],
    ]
  ) {
    await using env = await replEnv([{ reply: { text: "Hello.", usage: BIG } }], {
      homeConfig: (baseUrl) =>
        `model = "${model}"\nmodel_provider = "${provider}"\nmax_budget_usd = 10\n` +
        `[model_providers.${provider}]\nbase_url = "${baseUrl}"\nwire_api = "${wire}"\n` +
        'env_key = "FAKE_API_KEY"\n',
    });
    const r = await pipedRepl(["-s", "read-only"], {
      cwd: env.repo,
      home: env.home,
      stdin: "hi\n/status\n",
    });
    const out = r.stdout + r.stderr;
    assert.equal(r.code, 0, out);
    assert.match(out, new RegExp(`model ${model} · provider ${provider}`));
    assert.doesNotMatch(out, /is a guess|not in the model catalog/);
    assert.match(out, /^cost: +\$\d+\.\d{2,4} of the \$10 budget/m);
    assert.doesNotMatch(out, /cost: +unknown/);
  }
});
