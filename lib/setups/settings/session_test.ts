import assert from "node:assert/strict";
import { join } from "node:path";
import { tempTree } from "../../config/_testing.ts";
import { loadConfig } from "../../config/load.ts";
import { grantTrust } from "../../config/trust_store.ts";
import { settingsDefinitions } from "./definitions.ts";
import { envWithSettings, sessionSetupSettings } from "./session.ts";
import { setupContext } from "../sources.ts";

const POLICY = {
  inherit: "all" as const,
  ignore_default_excludes: false,
  exclude: ["SECRETISH"],
  include_only: [],
  set: { FIXED: "ours" },
  experimental_use_profile: false,
};

Deno.test("settings env passes [shell_environment_policy]: excludes hold, set wins, empty removes", () => {
  const warnings: string[] = [];
  const env = envWithSettings(POLICY, { PATH: "/bin", DROP: "x", FIXED: "host" }, {
    GREETING: "hi",
    FIXED: "theirs",
    DROP: "",
    API_KEY: "k",
    SECRETISH: "s",
  }, warnings);
  assert.deepEqual(env, { PATH: "/bin", FIXED: "ours", GREETING: "hi" });
  assert.deepEqual(warnings, [
    "The settings env API_KEY, SECRETISH are not passed to commands: " +
    "[shell_environment_policy] excludes them (set ignore_default_excludes or include_only)",
  ]);
});

Deno.test("a project's env and status line apply only once trusted; the user's env only when imported", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "", "user/x": "" });
  const user = join(t.root, "user");
  await t.write(
    "user/.claude/settings.json",
    JSON.stringify({ env: { WHO: "user" }, statusLine: { type: "command", command: "user.sh" } }),
  );
  await t.write(
    "repo/.claude/settings.json",
    JSON.stringify({
      env: { WHO: "project", ONLY_PROJECT: "1" },
      statusLine: { type: "command", command: "project.sh", padding: 2 },
    }),
  );
  await t.write("home/config.toml", `[projects."${t.repo}"]\ntrust_level = "trusted"\n`);
  const env = { ...t.env, HOME: user };
  const load = () => loadConfig({ cwd: t.repo, env, flags: {}, overrides: [] });
  let config = await load();
  const before = await sessionSetupSettings(config, { env });
  assert.deepEqual(before.env, {});
  assert.equal(before.statusLine?.command, "user.sh", "the user's status line comes first");
  // The session's one warning about untrusted definitions names the env (lib/session/trust.ts).
  assert.deepEqual(before.warnings, []);

  const definitions = await settingsDefinitions(setupContext(config, { env }));
  assert.deepEqual(definitions.map((d) => [d.kind, d.command]), [
    ["status_line", "project.sh"],
    ["env", 'WHO="project" ONLY_PROJECT="1"'],
  ]);
  await grantTrust(t.home, t.repo, { definitions: definitions.map((d) => d.key) });
  await t.write(
    "home/config.toml",
    `import_user_setups = ["env"]\n[projects."${t.repo}"]\ntrust_level = "trusted"\n`,
  );
  config = await load();
  const after = await sessionSetupSettings(config, { env });
  assert.deepEqual(after.env, { WHO: "user", ONLY_PROJECT: "1" });
  assert.deepEqual(after.warnings, []);
});

Deno.test("our status_line_command wins; a project's own one needs trust", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "repo/.claude/settings.json",
    JSON.stringify({ statusLine: { type: "command", command: "claude.sh" } }),
  );
  await t.write("repo/.openinterpreter/config.toml", 'status_line_command = "ours.sh"\n');
  await t.write("home/config.toml", `[projects."${t.repo}"]\ntrust_level = "trusted"\n`);
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  const found = await sessionSetupSettings(config, { env: t.env });
  assert.equal(found.statusLine, undefined);
  assert.deepEqual(found.warnings, []);
  const bypass = await sessionSetupSettings(config, { env: t.env, bypassTrust: true });
  assert.equal(bypass.statusLine?.command, "ours.sh");
  assert.equal(bypass.statusLine?.scope, "project");
});
