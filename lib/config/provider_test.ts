import assert from "node:assert/strict";
import { AuthError, ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { type FlagOverrides, loadConfig } from "./load.ts";
import type { BuiltinProvider } from "../providers/builtin.ts";
import { resolveProvider } from "./provider.ts";

const BUILTINS: BuiltinProvider[] = [
  {
    id: "deepseek",
    name: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    wireApi: "chat",
    wireApis: ["chat"],
    envKey: "DEEPSEEK_API_KEY",
    compat: { reasoningField: "reasoning_content" },
    defaultModel: "deepseek-chat",
  },
  {
    id: "ollama",
    name: "Ollama",
    baseUrl: "http://localhost:11434/v1",
    wireApi: "responses",
    wireApis: ["responses"],
    compat: {},
    defaultModel: "gpt-oss:20b",
  },
];

async function configWith(toml: string, flags: FlagOverrides = {}, overrides: string[] = []) {
  await using t = await tempTree({ "home/config.toml": toml });
  return await loadConfig({ cwd: t.repo, env: t.env, flags, overrides });
}

Deno.test("resolveProvider() reads the key from the provider's env_key", async () => {
  const config = await configWith('model_provider = "deepseek"\n');
  const { settings, model } = resolveProvider(config, { DEEPSEEK_API_KEY: " sk-1 " }, {
    builtins: BUILTINS,
  });
  assert.equal(model, "deepseek-chat");
  assert.deepEqual(settings, {
    id: "deepseek",
    name: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    wireApi: "chat",
    apiKey: "sk-1",
    envKey: "DEEPSEEK_API_KEY",
    headers: {},
    queryParams: {},
    requestMaxRetries: 4,
    streamMaxRetries: 5,
    streamIdleTimeoutMs: 90_000,
    streamMaxLineBytes: 16 * 1024 * 1024,
    streamMaxReplyBytes: 64 * 1024 * 1024,
    compat: { reasoningField: "reasoning_content" },
  });
});

Deno.test("resolveProvider() throws AuthError naming the variable when the key is missing", async () => {
  const config = await configWith("", { model_provider: "deepseek" });
  for (const env of [{}, { DEEPSEEK_API_KEY: "" }]) {
    assert.throws(() => resolveProvider(config, env, { builtins: BUILTINS }), (error: unknown) => {
      assert.ok(error instanceof AuthError);
      assert.match(
        error.message,
        /^Missing API key for provider "deepseek": environment variable "DEEPSEEK_API_KEY" is (not set|empty)$/,
      );
      assert.match(
        error.hint!,
        /^Set DEEPSEEK_API_KEY \(export DEEPSEEK_API_KEY=\.\.\.\), or run interpreter and enter the key/,
      );
      assert.equal(error.exitCode, 2);
      return true;
    });
  }
});

Deno.test("resolveProvider() needs no key for a local provider", async () => {
  const config = await configWith("", { local_provider: "ollama", model: "qwen3:8b" });
  const { settings, model } = resolveProvider(config, {}, { builtins: BUILTINS });
  assert.equal(settings.id, "ollama");
  assert.equal(settings.apiKey, undefined);
  assert.equal(model, "qwen3:8b");
  const moved = resolveProvider(config, { OPENINTERPRETER_OSS_BASE_URL: "http://gpu:11434/v1/" }, {
    builtins: BUILTINS,
  });
  assert.equal(moved.settings.baseUrl, "http://gpu:11434/v1");
});

Deno.test("resolveProvider() lets a user entry override a built-in provider's fields", async () => {
  const config = await configWith(
    '[model_providers.ollama]\nbase_url = "http://box:9999/v1"\nrequest_max_retries = 1\n',
    { local_provider: "ollama" },
  );
  const { settings, model } = resolveProvider(config, {}, { builtins: BUILTINS });
  assert.equal(settings.baseUrl, "http://box:9999/v1");
  assert.equal(settings.name, "Ollama");
  assert.equal(settings.wireApi, "responses");
  assert.equal(settings.requestMaxRetries, 1);
  assert.equal(model, "gpt-oss:20b");
});

Deno.test("resolveProvider() builds a user-defined provider with headers and params", async () => {
  const config = await configWith(
    [
      'model_provider = "azure"',
      'model = "gpt-5"',
      "[model_providers.azure]",
      'base_url = "https://x.openai.azure.com/openai"',
      'env_key = "AZURE_KEY"',
      'wire_api = "responses"',
      'query_params = { "api-version" = "2025-04-01-preview" }',
      'http_headers = { "X-Team" = "a" }',
      'env_http_headers = { "X-Org" = "AZURE_ORG", "X-None" = "UNSET_VAR" }',
      "stream_idle_timeout_ms = 1000",
      "stream_max_retries = 0",
      "stream_max_line_bytes = 65536",
      "stream_max_reply_bytes = 1048576",
      "stream_max_reply_ms = 120000",
      'compat = { max_tokens_field = "max_tokens", stream_usage = true, reasoning_replay = "always" }',
    ].join("\n"),
  );
  const { settings } = resolveProvider(config, { AZURE_KEY: "k", AZURE_ORG: "org" }, {
    builtins: BUILTINS,
  });
  assert.equal(settings.name, "azure");
  assert.equal(settings.apiKey, "k");
  assert.deepEqual(settings.headers, { "X-Team": "a", "X-Org": "org" });
  assert.deepEqual(settings.queryParams, { "api-version": "2025-04-01-preview" });
  assert.equal(settings.streamIdleTimeoutMs, 1000);
  assert.equal(settings.streamMaxRetries, 0);
  assert.equal(settings.streamMaxLineBytes, 65_536);
  assert.equal(settings.streamMaxReplyBytes, 1_048_576);
  assert.equal(settings.requestTimeoutMs, 120_000);
  assert.deepEqual(settings.compat, {
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningReplay: "always",
  });
});

Deno.test("resolveProvider() rejects an unknown provider id, listing the known ones", async () => {
  const config = await configWith('[model_providers.mine]\nbase_url = "http://h/v1"\n', {
    model_provider: "deepsek",
  });
  assert.throws(() => resolveProvider(config, {}, { builtins: BUILTINS }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(
      error.message,
      'Unknown model provider "deepsek" (set by flag --provider): ' +
        'known providers are "deepseek", "ollama", "mine"',
    );
    assert.match(error.hint ?? "", /\[model_providers\.deepsek\] with base_url/);
    return true;
  });
});

Deno.test("resolveProvider() requires base_url and a model for a user-defined provider", async () => {
  const noUrl = await configWith(
    'model_provider = "p"\nmodel = "m"\n[model_providers.p]\nname = "P"\n',
  );
  assert.throws(() => resolveProvider(noUrl, {}, { builtins: BUILTINS }), /has no "base_url"/);
  const noModel = await configWith(
    'model_provider = "p"\n[model_providers.p]\nbase_url = "http://h"\n',
  );
  assert.throws(() => resolveProvider(noModel, {}, { builtins: BUILTINS }), /No model is set/);
});

Deno.test("resolveProvider() uses the built-in table by default", async () => {
  const config = await configWith('model = "gpt-5"\noss_provider = "ollama"\n', { oss: true });
  const { settings, model } = resolveProvider(config, {});
  assert.equal(settings.id, "ollama");
  assert.equal(settings.apiKey, undefined);
  assert.notEqual(model, "gpt-5", "--oss without --model uses the local default model");
  assert.deepEqual(config.origin("model"), { kind: "flag", name: "--oss" });
  const deepseek = await configWith('model_provider = "deepseek"\n');
  assert.throws(() => resolveProvider(deepseek, {}), /"DEEPSEEK_API_KEY" is not set/);
});

Deno.test('compat reasoning_replay = "none" loads from config.toml and switches replay off', async () => {
  const config = await configWith(
    [
      'model_provider = "strict"',
      'model = "m"',
      "[model_providers.strict]",
      'base_url = "http://127.0.0.1:1/v1"',
      'wire_api = "chat"',
      'compat = { reasoning_replay = "none" }',
    ].join("\n"),
  );
  const { settings } = resolveProvider(config, {}, { builtins: BUILTINS });
  assert.equal(settings.compat?.reasoningReplay, "none");
});
