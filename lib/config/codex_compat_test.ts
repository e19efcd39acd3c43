/** What Codex SDK apps send: the base URL and key, Codex-only keys, extra writable roots. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { type FlagOverrides, loadConfig } from "./load.ts";
import { resolveProvider } from "./provider.ts";

const PROVIDERS = `
[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:1/v1"
wire_api = "chat"
env_key = "LOCAL_KEY"

[model_providers.claude]
name = "Claude"
base_url = "http://127.0.0.1:2/v1"
wire_api = "messages"
env_key = "CLAUDE_KEY"
`;

async function load(toml: string, overrides: string[] = [], flags: FlagOverrides = {}) {
  await using t = await tempTree({ "home/config.toml": toml + PROVIDERS });
  return await loadConfig({ cwd: t.repo, env: t.env, flags, overrides });
}

Deno.test("openai_base_url and CODEX_API_KEY replace an OpenAI-wire provider's URL and key", async () => {
  const config = await load('model = "m"\nmodel_provider = "local"\n', [
    'openai_base_url="http://127.0.0.1:3/v1"',
  ]);
  const { settings } = resolveProvider(config, { CODEX_API_KEY: "sdk" });
  assert.equal(settings.baseUrl, "http://127.0.0.1:3/v1");
  assert.equal(settings.apiKey, "sdk");
});

Deno.test("OPENAI_BASE_URL applies when openai_base_url is not set; the config key wins", async () => {
  const env = { OPENAI_BASE_URL: "http://127.0.0.1:4/v1", LOCAL_KEY: "k" };
  const plain = await load('model = "m"\nmodel_provider = "local"\n');
  assert.equal(resolveProvider(plain, env).settings.baseUrl, "http://127.0.0.1:4/v1");
  assert.equal(resolveProvider(plain, env).settings.apiKey, "k");
  const both = await load('model = "m"\nmodel_provider = "local"\n', [
    'openai_base_url="http://127.0.0.1:5/v1"',
  ]);
  assert.equal(resolveProvider(both, env).settings.baseUrl, "http://127.0.0.1:5/v1");
});

Deno.test("A Messages provider keeps its own URL and key", async () => {
  const config = await load('model = "m"\nmodel_provider = "claude"\n', [
    'openai_base_url="http://127.0.0.1:3/v1"',
  ]);
  const { settings } = resolveProvider(config, { CODEX_API_KEY: "sdk", CLAUDE_KEY: "c" });
  assert.equal(settings.baseUrl, "http://127.0.0.1:2/v1");
  assert.equal(settings.apiKey, "c");
});

Deno.test("A Codex-only -c key warns once however often it is given; a typo of ours still suggests", async () => {
  const config = await load("", [
    "show_raw_agent_reasoning=true",
    "show_raw_agent_reasoning=false",
    "features.hooks=true",
    'profiles.p.model_reasoning_summary_format="x"',
    'model_reasoning_efort="high"',
  ]);
  assert.deepEqual(config.warnings, [
    'Ignoring "show_raw_agent_reasoning" in -c: a Codex-only setting',
    'Ignoring "features" in -c: a Codex-only setting',
    'Ignoring "profiles.p.model_reasoning_summary_format" in -c: a Codex-only setting',
    'Unknown key "model_reasoning_efort" in -c override "model_reasoning_efort="high""; ' +
    'did you mean "model_reasoning_effort"?',
  ]);
});

Deno.test("Codex's web_search key is ours: the last -c wins, and a wrong mode is refused", async () => {
  const config = await load("", ['web_search="live"', 'web_search="disabled"']);
  assert.deepEqual(config.warnings, []);
  assert.equal(config.values.web_search, "disabled");
  await assert.rejects(load("", ['web_search="on"']), /web_search/);
});

Deno.test("--add-dir adds writable roots after the configured ones; a missing one is refused", async () => {
  await using t = await tempTree({ "extra/keep": "" });
  const extra = join(t.root, "extra");
  const config = await load('[sandbox_workspace_write]\nwritable_roots = ["/srv/a"]\n', [], {
    add_dirs: [extra],
  });
  assert.deepEqual(config.values.sandbox_workspace_write.writable_roots, ["/srv/a", extra]);
  await assert.rejects(
    load("", [], { add_dirs: [join(t.root, "missing")] }),
    (error: Error) =>
      error instanceof UsageError && /missing" as a writable root/.test(error.message),
  );
});
