import assert from "node:assert/strict";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

Deno.test({
  name: "after /model to a messages provider /harness checks the messages wire; {{model}} " +
    "follows; /permissions changes the sandbox mode in place" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const review = {
      findings: [],
      overall_correctness: "patch is correct",
      overall_explanation: "Nothing to change.",
      overall_confidence_score: 0.9,
    };
    await using env = await replEnv([
      { reply: { text: "Hello from Messages." } },
      { reply: { text: JSON.stringify(review) } },
    ], {
      config: 'harness = "pi"\n',
    });
    await Deno.writeTextFile(
      `${env.home}/config.toml`,
      `\n[model_providers.fakemsg]\nname = "Fake Messages"\nbase_url = "${env.fake.origin}"\n` +
        'wire_api = "messages"\nenv_key = "FAKE_API_KEY"\n',
      { append: true },
    );
    await using pane = await Pane.open(["-s", "workspace-write"], env);
    await pane.waitFor(PROMPT_LINE);
    let from = await pane.mark();
    await pane.type("/model fakemsg/mock-model!");
    let out = await pane.settled(from);
    assert.match(out, /model: fakemsg\/mock-model/);

    from = await pane.mark();
    await pane.type("/harness zcode");
    out = await pane.settled(from);
    assert.doesNotMatch(out, /error:/, "zcode speaks messages");
    assert.match(out, /harness: zcode/);

    from = await pane.mark();
    await pane.type("/harness deepseek-tui");
    out = await pane.settled(from);
    assert.match(out, /error: .*"messages".*deepseek-tui|error: .*deepseek-tui.*"messages"/);

    from = await pane.mark();
    await pane.type("hello");
    await pane.waitFor(/Hello from Messages\./, from);
    const request = env.fake.requests.at(-1)!;
    assert.equal(request.path, "/v1/messages");
    assert.match(JSON.stringify(request.body), /zai\/mock-model/, "{{model}} is the model in use");

    // A review talks to the model in use too, not the start-up one.
    from = await pane.mark();
    await pane.type("/review look at the tracker");
    await pane.waitFor(/Nothing to change\./, from);
    const reviewed = env.fake.requests.at(-1)!;
    assert.equal(reviewed.path, "/v1/messages");
    assert.equal((reviewed.body as { model: string }).model, "mock-model");

    from = await pane.mark();
    await pane.type("/permissions read-only");
    out = await pane.settled(from);
    assert.match(out, /^sandbox: read-only /m);
    from = await pane.mark();
    await pane.type("/permissions workspace-write");
    out = await pane.settled(from);
    assert.match(out, /^sandbox: workspace-write /m);
    from = await pane.mark();
    await pane.type("/permissions sideways");
    out = await pane.settled(from);
    assert.match(out, /error: Unknown \/permissions argument "sideways"/);
    from = await pane.mark();
    await pane.type("/status");
    out = await pane.settled(from);
    assert.match(out, /workspace-write/);
    assert.deepEqual(env.fake.failures, []);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "/model to a provider without a key asks for the key hidden, stores it and switches" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    const key = "sk-other-7d1e";
    await using env = await replEnv([{ reply: { text: "Hello from Other." } }]);
    await Deno.writeTextFile(
      `${env.home}/config.toml`,
      `\n[model_providers.other]\nname = "Other"\nbase_url = "${env.fake.baseUrl}"\n` +
        'wire_api = "chat"\nenv_key = "OTHER_API_KEY"\n',
      { append: true },
    );
    await using pane = await Pane.open(["-s", "read-only"], env);
    await pane.waitFor(PROMPT_LINE);
    const from = await pane.mark();
    await pane.type("/model other/other-model!");
    await pane.waitFor(/API key for Other \(hidden; Enter skips\): $/m, from);
    await pane.type(key);
    const out = await pane.waitFor(/model: other\/other-model/, from);
    assert.match(out, /stored it in [^\n]*auth\.json/);
    assert.ok(!out.includes(key), "the key was echoed");
    await pane.type("hello");
    await pane.waitFor(/Hello from Other\./, from);
    const request = env.fake.requests.at(-1)!;
    assert.equal(request.headers.authorization, `Bearer ${key}`);
    const auth = JSON.parse(await Deno.readTextFile(`${env.home}/auth.json`));
    assert.equal(auth.providers.other.api_key, key);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});

Deno.test({
  name: "a REPL session left in plan mode resumes in plan mode" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using env = await replEnv([{ reply: { text: "Noted." } }]);
    {
      await using pane = await Pane.open(["-s", "read-only"], env);
      await pane.waitFor(PROMPT_LINE);
      const from = await pane.mark();
      await pane.type("remember this");
      await pane.waitFor(/Noted\./, from);
      await pane.type("/plan");
      await pane.waitFor(/^plan › $/m, from);
      await pane.type("/exit");
      await pane.waitFor(/^EXIT:0$/m, from);
    }
    await using pane = await Pane.open(["-s", "read-only", "resume", "--last"], env);
    await pane.waitFor(/^plan › $/m);
    const from = await pane.mark();
    await pane.type("/plan");
    await pane.waitFor(/Plan mode off/, from);
    await pane.type("/exit");
    await pane.waitFor(/^EXIT:0$/m, from);
  },
});
