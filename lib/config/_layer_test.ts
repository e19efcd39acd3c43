import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { findKeyLine } from "./_layer.ts";
import { tempTree } from "./_testing.ts";
import { loadConfig } from "./load.ts";

async function loadError(files: Record<string, string>): Promise<ConfigError> {
  await using t = await tempTree(files);
  const error = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] })
    .then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${error}`);
  const hint = error.hint?.replaceAll(t.home, "<home>");
  return new ConfigError(error.message.replaceAll(t.home, "<home>"), { hint });
}

Deno.test("loadConfig() reports a TOML syntax error with the file, line and column", async () => {
  const error = await loadError({ "home/config.toml": 'model = "o3"\nsandbox_mode = read-only\n' });
  assert.match(
    error.message,
    /^Cannot parse "<home>\/config.toml" at line 2, column 16: [a-z]/,
  );
  assert.match(error.hint ?? "", /line 2 of "<home>\/config.toml"/);
});

Deno.test("loadConfig() says a key set twice is set twice, not that strings need quotes", async () => {
  const error = await loadError({ "home/config.toml": 'model = "o3"\nmodel = "o4"\n' });
  assert.match(error.message, /^Cannot parse "<home>\/config.toml" at line 2/);
  assert.equal(
    error.hint,
    'A key or table is set twice: remove or rename the second one at line 2 of "<home>/config.toml"',
  );
});

Deno.test("loadConfig() reports a bad enum value with file, key, line and allowed values", async () => {
  const error = await loadError({
    "home/config.toml": '# comment\nmodel = "o3"\nmodel_reasoning_effort = "fast"\n',
  });
  assert.equal(
    error.message,
    'Invalid value "fast" for "model_reasoning_effort" in "<home>/config.toml" at line 3: ' +
      'expected one of "none", "minimal", "low", "medium", "high", "xhigh"',
  );
  assert.match(error.hint ?? "", /one of the allowed values/);
});

Deno.test("loadConfig() reports bad values inside tables with their dotted key", async () => {
  const wrongType = await loadError({
    "home/config.toml":
      '[model_providers.local]\nbase_url = "http://h/v1"\nrequest_max_retries = 500\n',
  });
  assert.equal(
    wrongType.message,
    'Invalid value 500 for "model_providers.local.request_max_retries" in ' +
      '"<home>/config.toml" at line 3: expected at most 100',
  );
  const inProfile = await loadError({
    "home/config.toml": '[profiles.fast]\nsandbox_mode = "yolo"\n',
  });
  assert.match(inProfile.message, /"profiles\.fast\.sandbox_mode" .* at line 2: expected one of/);
  const notBool = await loadError({ "home/config.toml": 'harness_guidance = "yes"\n' });
  assert.match(notBool.message, /Invalid value "yes" .*: expected true or false$/);
  const badUrl = await loadError({
    "home/config.toml": '[mcp_servers.m]\nurl = "ftp://h/mcp"\n',
  });
  assert.match(
    badUrl.message,
    /"mcp_servers\.m\.url" .* at line 2: expected an http or https URL$/,
  );
});

Deno.test("loadConfig() warns about unknown keys and suggests the closest known key", async () => {
  await using t = await tempTree({
    "home/config.toml": 'modle = "o3"\n[shell_environment_policy]\ninheritt = "core"\nzzz = 1\n',
  });
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  const file = join(t.home, "config.toml");
  assert.deepEqual(config.warnings, [
    `Unknown key "modle" in "${file}" at line 1; did you mean "model"?`,
    `Unknown key "shell_environment_policy.inheritt" in "${file}" at line 3; ` +
    'did you mean "shell_environment_policy.inherit"?',
    `Unknown key "shell_environment_policy.zzz" in "${file}" at line 4`,
  ]);
  assert.equal(config.values.model, undefined);
  assert.equal(config.values.shell_environment_policy.inherit, "all");
});

Deno.test("findKeyLine() finds keys under headers, dotted keys and inline tables", () => {
  const text = [
    'model = "x"',
    "[model_providers.a]",
    'base_url = "u"',
    'prompt = """',
    'model = "not a key"',
    '"""',
    "[profiles.'p 1']",
    "mcp.command = 1",
    "x = { y = 1 }",
  ].join("\n");
  assert.equal(findKeyLine(text, ["model"]), 1);
  assert.equal(findKeyLine(text, ["model_providers", "a", "base_url"]), 3);
  assert.equal(findKeyLine(text, ["model_providers", "a", "missing"]), 2);
  assert.equal(findKeyLine(text, ["profiles", "p 1", "mcp", "command"]), 8);
  assert.equal(findKeyLine(text, ["profiles", "p 1", "x", "y", 0]), 9);
  assert.equal(findKeyLine(text, ["nothing"]), undefined);
});
