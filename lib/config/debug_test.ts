import assert from "node:assert/strict";
import { join } from "node:path";
import { tempTree } from "./_testing.ts";
import { formatConfigDebug, isSecretKey } from "./debug.ts";
import { loadConfig } from "./load.ts";

Deno.test("formatConfigDebug() prints each value with its origin, secrets masked", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "home/config.toml",
    [
      'model = "user-model"',
      'modle = "typo"',
      "[profiles.fast]",
      'model_reasoning_effort = "low"',
      "[model_providers.x]",
      'base_url = "http://h/v1"',
      'env_key = "X_API_KEY"',
      'http_headers = { Authorization = "Bearer sk-live-1", "X-Api-Key" = "k-2", Accept = "a" }',
      "[shell_environment_policy.set]",
      'GITHUB_TOKEN = "ghp-3"',
      `[projects."${t.repo}"]`,
      'trust_level = "trusted"',
    ].join("\n"),
  );
  await t.write("repo/.openinterpreter/config.toml", 'harness = "codex"\n');
  const config = await loadConfig({
    cwd: t.repo,
    env: t.env,
    flags: { sandbox_mode: "danger-full-access" },
    overrides: ["approval_policy=never"],
    profile: "fast",
  });
  const userFile = join(t.home, "config.toml");
  const text = formatConfigDebug(config);
  const line = (key: string) => text.split("\n").find((l) => l.startsWith(`${key} = `));

  assert.match(
    line("sandbox_mode") ?? "",
    /^sandbox_mode = "danger-full-access" +# flag --sandbox$/,
  );
  assert.match(line("approval_policy") ?? "", /= "never" +# -c override$/);
  assert.match(line("model_reasoning_effort") ?? "", /= "low" +# profile "fast" \(.*\)$/);
  assert.ok(line("model_reasoning_effort")?.endsWith(`(${userFile})`));
  assert.match(line("harness") ?? "", /= "codex" +# project .*\.openinterpreter\/config\.toml$/);
  assert.ok(line("model")?.endsWith(`# user ${userFile}`));
  assert.match(line("harness_guidance") ?? "", /= true +# default$/);
  assert.match(line("model_providers.x.env_key") ?? "", /"X_API_KEY"/);
  assert.match(line("model_providers.x.http_headers.Accept") ?? "", /"a"/);
  for (const secret of ["sk-live-1", "k-2", "ghp-3"]) assert.ok(!text.includes(secret), secret);
  assert.match(line("model_providers.x.http_headers.Authorization") ?? "", /"\*+"/);
  assert.match(line("model_providers.x.http_headers.X-Api-Key") ?? "", /"\*+"/);
  assert.match(text, /# warning: Unknown key "modle" .*did you mean "model"\?/);

  const keys = text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) =>
    l.split(" = ")[0]
  );
  assert.deepEqual(keys, [...keys].sort());
});

Deno.test("isSecretKey() matches secret-looking names but not variable-name keys", () => {
  assert.ok(isSecretKey("mcp_servers.gh.env.GITHUB_TOKEN"));
  assert.ok(isSecretKey("model_providers.x.http_headers.authorization"));
  assert.ok(isSecretKey("shell_environment_policy.set.CLIENT_SECRET"));
  assert.ok(!isSecretKey("model_providers.x.env_key"));
  assert.ok(!isSecretKey("mcp_servers.gh.bearer_token_env_var"));
  assert.ok(!isSecretKey("model"));
});
