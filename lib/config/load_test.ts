import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { configHome, type FlagOverrides, loadConfig } from "./load.ts";

const trusted = (repo: string) => `[projects."${repo}"]\ntrust_level = "trusted"\n`;

Deno.test("loadConfig() takes each key from the highest layer that sets it", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  const userFile = join(t.home, "config.toml");
  const projectFile = join(t.repo, ".openinterpreter", "config.toml");
  await t.write(
    "home/config.toml",
    `harness = "u"\nmodel = "u"\n[profiles.fast]\nharness = "f"\nmodel = "f"\n${trusted(t.repo)}`,
  );
  await t.write("repo/.openinterpreter/config.toml", 'harness = "p"\nmodel = "p"\n');
  const load = (flags: FlagOverrides, overrides: string[], profile?: string) =>
    loadConfig({ cwd: join(t.repo), env: t.env, flags, overrides, profile });

  const all = await load({ harness: "x", model: "x" }, ["harness=c", 'model="c"'], "fast");
  assert.equal(all.values.harness, "x");
  assert.deepEqual(all.origin("harness"), { kind: "flag", name: "--harness" });
  assert.deepEqual(all.origin("model"), { kind: "flag", name: "--model" });

  const noFlag = await load({}, ["harness=c"], "fast");
  assert.equal(noFlag.values.harness, "c");
  assert.deepEqual(noFlag.origin("harness"), { kind: "override", text: "-c harness=c" });

  const noOverride = await load({}, [], "fast");
  assert.equal(noOverride.values.harness, "f");
  assert.deepEqual(noOverride.origin("harness"), { kind: "profile", name: "fast", file: userFile });

  const noProfile = await load({}, []);
  assert.equal(noProfile.values.harness, "p");
  assert.deepEqual(noProfile.origin("harness"), { kind: "project", file: projectFile });
  assert.deepEqual(noProfile.files, [userFile, projectFile]);

  await Deno.remove(projectFile);
  const userOnly = await load({}, []);
  assert.equal(userOnly.values.harness, "u");
  assert.deepEqual(userOnly.origin("harness"), { kind: "user", file: userFile });

  await Deno.remove(userFile);
  const defaults = await load({}, []);
  assert.equal(defaults.values.harness, "");
  assert.deepEqual(defaults.origin("harness"), { kind: "default" });
  assert.equal(defaults.origin("model"), undefined);
  assert.deepEqual(defaults.files, []);
});

Deno.test("loadConfig() selects a profile by flag or by the top-level profile key", async () => {
  await using t = await tempTree({
    "home/config.toml": 'profile = "a"\n[profiles.a]\nmodel = "ma"\n[profiles.b]\nmodel = "mb"\n',
  });
  const base = { cwd: t.repo, env: t.env, flags: {}, overrides: [] };
  const byKey = await loadConfig(base);
  assert.equal(byKey.values.model, "ma");
  const byFlag = await loadConfig({ ...base, profile: "b" });
  assert.equal(byFlag.values.model, "mb");
  assert.deepEqual(byFlag.origin("profile"), { kind: "flag", name: "--profile" });
  const byOverride = await loadConfig({ ...base, overrides: ["profile=b"] });
  assert.equal(byOverride.values.model, "mb");
});

Deno.test("loadConfig() names the existing profiles when the selected one is missing", async () => {
  await using t = await tempTree({ "home/config.toml": "[profiles.a]\n[profiles.b]\n" });
  await assert.rejects(
    loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [], profile: "fats" }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /Cannot find profile "fats" selected by flag --profile/);
      assert.match(error.message, /"a", "b"/);
      assert.match(error.hint ?? "", /\[profiles\.fats\]/);
      return true;
    },
  );
});

Deno.test("loadConfig() ignores an untrusted project config and loads a trusted one", async () => {
  await using t = await tempTree({
    "repo/.git/HEAD": "",
    "repo/.openinterpreter/config.toml":
      'model = "project"\n[projects."/"]\ntrust_level="trusted"\n',
    "home/config.toml": 'model = "user"\n',
  });
  await Deno.mkdir(join(t.repo, "sub", "dir"), { recursive: true });
  const opts = { cwd: join(t.repo, "sub", "dir"), env: t.env, flags: {}, overrides: [] };
  const untrusted = await loadConfig(opts);
  assert.equal(untrusted.values.model, "user");
  assert.equal(untrusted.projectRoot, t.repo);
  assert.equal(untrusted.values.sandbox_mode, "workspace-write");
  assert.ok(untrusted.warnings.some((w) => w.includes("is not trusted")));

  await t.write("home/config.toml", `model = "user"\n${trusted(t.repo)}`);
  const loaded = await loadConfig(opts);
  assert.equal(loaded.values.model, "project");
  assert.equal(loaded.trust, "trusted");
  assert.equal(loaded.values.sandbox_mode, "workspace-write");
  assert.equal(loaded.values.projects?.["/"], undefined);
  assert.ok(loaded.warnings.some((w) => w.includes('Ignoring "projects"')));
});

Deno.test("loadConfig() uses cwd as the project root when no ancestor has .git", async () => {
  await using t = await tempTree({
    "repo/.openinterpreter/config.toml": 'model = "project"\n',
  });
  await t.write("home/config.toml", trusted(t.repo));
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.equal(config.projectRoot, t.repo);
  assert.equal(config.values.model, "project");
});

Deno.test("loadConfig() merges tables key by key, each key with its own origin", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "home/config.toml",
    `[model_providers.x]\nbase_url = "http://a/v1"\nhttp_headers = { A = "1" }\n${trusted(t.repo)}`,
  );
  await t.write(
    "repo/.openinterpreter/config.toml",
    '[model_providers.x]\nenv_key = "X_KEY"\nhttp_headers = { B = "2" }\n',
  );
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.deepEqual(config.values.model_providers.x, {
    base_url: "http://a/v1",
    env_key: "X_KEY",
    http_headers: { A: "1", B: "2" },
  });
  assert.equal(config.origin("model_providers.x.base_url")?.kind, "user");
  assert.equal(config.origin("model_providers.x.env_key")?.kind, "project");
  assert.equal(config.origin('model_providers.x.http_headers."A"')?.kind, "user");
  assert.equal(config.origin("model_providers.x")?.kind, "project");
});

Deno.test("loadConfig() --oss picks --local-provider, else oss_provider (oss_test.ts: else the one running)", async () => {
  await using t = await tempTree();
  const base = { cwd: t.repo, env: t.env, overrides: [] };
  await t.write("home/config.toml", 'oss_provider = "lmstudio"\n');
  const configured = await loadConfig({ ...base, flags: { oss: true } });
  assert.equal(configured.values.model_provider, "lmstudio");
  assert.deepEqual(configured.origin("model_provider"), { kind: "flag", name: "--oss" });
  const flagged = await loadConfig({ ...base, flags: { oss: true, local_provider: "vllm" } });
  assert.equal(flagged.values.model_provider, "vllm");
  assert.deepEqual(flagged.origin("model_provider"), { kind: "flag", name: "--local-provider" });
  await assert.rejects(loadConfig({ ...base, flags: { local_provider: "tgi" } }), UsageError);
});

Deno.test("loadConfig() rejects an invalid flag value as a usage error", async () => {
  await using t = await tempTree();
  await assert.rejects(
    loadConfig({ cwd: t.repo, env: t.env, flags: { sandbox_mode: "yolo" }, overrides: [] }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /Invalid value "yolo" for "sandbox_mode" in flag --sandbox/);
      return true;
    },
  );
});

Deno.test("loadConfig() requires exactly one of command or url per MCP server", async () => {
  await using t = await tempTree({
    "home/config.toml": '[mcp_servers.docs]\nurl = "https://x/mcp"\ncommand = "npx"\n',
  });
  await assert.rejects(
    loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] }),
    /Invalid MCP server "docs" set by user .*: set only one of "command" \(stdio\) or "url"/,
  );
  await t.write("home/config.toml", '[mcp_servers.docs]\ncommand = "npx"\n');
  const split = await loadConfig({
    cwd: t.repo,
    env: t.env,
    flags: {},
    overrides: ["mcp_servers.docs.enabled=false"],
  });
  assert.deepEqual(split.values.mcp_servers.docs, { command: "npx", enabled: false });
  await assert.rejects(
    loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: ["mcp_servers.web.enabled=true"] }),
    /Invalid MCP server "web" set by -c override: set "command" for a stdio server/,
  );
});

Deno.test("loadConfig() never writes: a missing home stays missing", async () => {
  await using t = await tempTree();
  const env = { OPENINTERPRETER_HOME: join(t.root, "nowhere") };
  const config = await loadConfig({ cwd: t.repo, env, flags: {}, overrides: [] });
  assert.equal(config.values.model_provider, "openai");
  assert.equal(config.values.harness_guidance, true);
  await assert.rejects(Deno.stat(join(t.root, "nowhere")), Deno.errors.NotFound);
  assert.deepEqual([...Deno.readDirSync(t.repo)], []);
});

Deno.test("loadConfig() does not even parse the config of an untrusted project", async () => {
  await using t = await tempTree({
    "repo/.git/HEAD": "",
    "repo/.openinterpreter/config.toml": "this is [not toml\n",
  });
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.equal(config.files.length, 0);
  await t.write("home/config.toml", trusted(t.repo));
  await assert.rejects(
    loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] }),
    /Cannot parse ".*\/repo\/.openinterpreter\/config.toml" at line 1/,
  );
});

Deno.test("configHome() prefers OPENINTERPRETER_HOME, then HOME, else throws", () => {
  assert.equal(configHome({ OPENINTERPRETER_HOME: "rel", HOME: "/h" }, "/cwd"), "/cwd/rel");
  assert.equal(configHome({ HOME: "/h" }, "/cwd"), "/h/.openinterpreter");
  assert.throws(() => configHome({}, "/cwd"), /neither OPENINTERPRETER_HOME nor HOME is set/);
});
