/**
 * The REPL's first run on a real terminal: a built-in provider whose key is typed (hidden),
 * checked with one request and kept in auth.json only, and a custom OpenAI-compatible endpoint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { interpreter } from "./_harness_env.ts";
import { replEnv } from "./_repl_env.ts";
import { HAS_TMUX, Pane, PROMPT_LINE, SKIP } from "./_tmux_pane.ts";

const KEY = "sk-first-run-4f9c1e";

function firstRunSetup(script: { reply: { text: string } }[], homeConfig = "") {
  return replEnv(script, {
    apiKey: KEY,
    homeConfig: (baseUrl) => homeConfig.replace("URL", baseUrl),
  });
}

/** Every file under `dir` but auth.json, with its text. */
async function filesBesidesAuth(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      for (const [p, text] of await filesBesidesAuth(path)) found.set(p, text);
    } else if (entry.isFile && entry.name !== "auth.json") {
      found.set(path, await Deno.readTextFile(path));
    }
  }
  return found;
}

/** The key is nowhere but in auth.json, which only its owner can read. */
async function assertKeyOnlyInAuth(home: string, provider: string, screen: string) {
  const auth = join(home, "auth.json");
  assert.equal((await Deno.stat(auth)).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(auth)), {
    providers: { [provider]: { api_key: KEY } },
  });
  const others = await filesBesidesAuth(home);
  assert.ok([...others.keys()].some((p) => p.endsWith(".jsonl")), "a session file was written");
  for (const [path, text] of others) assert.ok(!text.includes(KEY), `the key is in ${path}`);
  assert.ok(!screen.includes(KEY), "the key was echoed");
}

Deno.test({
  name: "the first run asks for a missing key hidden, checks it, keeps it in auth.json only" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    // DeepSeek as a built-in, pointed at the scripted model (the wire and key variable stay).
    await using t = await firstRunSetup(
      [{ reply: { text: "hello from the first run" } }],
      `[model_providers.deepseek]\nbase_url = "URL"\n`,
    );
    {
      await using pane = await Pane.open([], { repo: t.repo, home: t.home });
      const menu = await pane.waitFor(/No model provider is set up yet[\s\S]*> $/m);
      assert.match(menu, /Another OpenAI-compatible endpoint/);
      await pane.type(/(\d+)\) DeepSeek/.exec(menu)![1]);
      await pane.waitFor(/API key for DeepSeek \(hidden; Enter skips\): $/m);
      await pane.type("wrong-key");
      await pane.waitFor(/refused the key \(HTTP 401[^\n]*\n[^]*API key for DeepSeek[^\n]*: $/m);
      await pane.type(KEY);
      await pane.waitFor(/accepted the key; stored it in [^\n]*auth\.json[^]*› $/m);
      const mark = await pane.mark();
      await pane.type("hi");
      await pane.waitFor(/hello from the first run/, mark);
      await pane.settled(mark);
      const screen = await pane.screen();
      assert.ok(!screen.includes("wrong-key"), screen);
      await pane.type("/exit");
      await pane.waitFor(/EXIT:0/);
      await assertKeyOnlyInAuth(t.home, "deepseek", screen);
    }
    const requests = t.fake.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`);
    assert.deepEqual(requests, [
      "GET /v1/models Bearer wrong-key",
      `GET /v1/models Bearer ${KEY}`,
      `POST /v1/chat/completions Bearer ${KEY}`,
    ]);
    assert.deepEqual(t.fake.failures, []);

    const logout = await interpreter(["logout", "deepseek"], { cwd: t.repo, home: t.home });
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stdout, /Removed the key of provider "deepseek"/);
    await assert.rejects(Deno.stat(join(t.home, "auth.json")), Deno.errors.NotFound);
    const again = await interpreter(["logout", "deepseek"], { cwd: t.repo, home: t.home });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^error: No key is stored for provider "deepseek"/m);
    const exec = await interpreter(["exec", "hi"], { cwd: t.repo, home: t.home });
    assert.equal(exec.code, 2, "a missing key is a configuration problem");
    assert.match(exec.stderr, /^error: Missing API key for provider "deepseek"/m);
  },
});

Deno.test({
  name: "the first run sets up another OpenAI-compatible endpoint and its key" + SKIP,
  ignore: !HAS_TMUX,
  async fn() {
    await using t = await firstRunSetup([{ reply: { text: "hello from the endpoint" } }]);
    await using pane = await Pane.open([], { repo: t.repo, home: t.home });
    const menu = await pane.waitFor(/No model provider is set up yet[\s\S]*> $/m);
    await pane.type(/(\d+)\) Another OpenAI-compatible endpoint/.exec(menu)![1]);
    await pane.waitFor(/Base URL[^\n]*: $/m);
    await pane.type(t.fake.baseUrl);
    await pane.waitFor(/Model: $/m);
    await pane.type("fake-model");
    await pane.waitFor(/Environment variable of its key[^\n]*: $/m);
    await pane.type("FIRST_RUN_ENDPOINT_KEY");
    await pane.waitFor(/API key for [^\n]*\(hidden; Enter skips\): $/m);
    await pane.type(KEY);
    await pane.waitFor(/accepted the key[^]*› $/m);
    const mark = await pane.mark();
    await pane.type("hi");
    await pane.waitFor(/hello from the endpoint/, mark);
    await pane.settled(mark);
    const screen = await pane.screen();
    await pane.type("/exit");
    await pane.waitFor(/EXIT:0/);
    const config = await Deno.readTextFile(join(t.home, "config.toml"));
    assert.match(config, /^model_provider = "127-0-0-1"$/m);
    assert.match(config, /^model = "fake-model"$/m);
    assert.match(config, /^\[model_providers\.127-0-0-1\]$/m);
    assert.ok(config.includes(`base_url = "${t.fake.baseUrl}"`), config);
    assert.match(config, /^env_key = "FIRST_RUN_ENDPOINT_KEY"$/m);
    await assertKeyOnlyInAuth(t.home, "127-0-0-1", screen);
    assert.deepEqual(t.fake.failures, []);
    assert.ok(PROMPT_LINE.test(screen));
  },
});
