import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { tempTree } from "../config/_testing.ts";
import { loadConfig } from "../config/load.ts";
import { discoverHooks } from "./discovery.ts";

const hook = (event: string, command: string, matcher?: string) =>
  `[[hooks.${event}]]\n${matcher ? `matcher = "${matcher}"\n` : ""}` +
  `[[hooks.${event}.hooks]]\ntype = "command"\ncommand = "${command}"\n`;

Deno.test("discoverHooks() runs every source's hooks: the user's files, then a trusted project's", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "home/hooks.json",
    JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "json-stop", timeout: 5 }] }] },
    }),
  );
  await t.write(
    "home/config.toml",
    `${hook("PreToolUse", "user-pre", "Bash")}\n[projects."${t.repo}"]\ntrust_level = "trusted"\n`,
  );
  await t.write("repo/.openinterpreter/config.toml", hook("PreToolUse", "project-pre", "Edit"));
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  const { hooks } = await discoverHooks(config);
  assert.deepEqual(
    hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSec, h.scope, h.source]),
    [
      ["Stop", undefined, "json-stop", 5, "user", join(t.home, "hooks.json")],
      ["PreToolUse", "Bash", "user-pre", 600, "user", join(t.home, "config.toml")],
      [
        "PreToolUse",
        "Edit",
        "project-pre",
        600,
        "project",
        join(t.repo, ".openinterpreter", "config.toml"),
      ],
    ],
  );
  assert.match(hooks[0].key, /^[0-9a-f]{64}$/);
});

Deno.test("bad hook entries are errors naming the file, the key and the fix", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  const load = () => loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  await t.write(
    "home/config.toml",
    '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "prompt"\ncommand = "x"\n',
  );
  await assert.rejects(load(), (error: ConfigError) => {
    assert.match(
      error.message,
      /^Invalid value "prompt" for "hooks\.PreToolUse\[0\]\.hooks\[0\]\.type" in ".*config\.toml" at line 3: expected "command": a hook runs a command/,
    );
    return true;
  });
  await t.write("home/config.toml", hook("PreToolUse", "x", "(Bash"));
  await assert.rejects(load(), /"hooks\.PreToolUse\[0\]\.matcher".*not a regular expression/);
  await t.write("home/config.toml", `${hook("SessionEnd", "x")}${hook("Stop", "y")}timout = 5\n`);
  const config = await load();
  assert.ok(config.warnings.some((w) => w.startsWith('Unknown key "hooks.SessionEnd"')));
  assert.ok(config.warnings.some((w) => w.startsWith('Unknown key "hooks.Stop.0.hooks.0.timout"')));
  await t.write("home/hooks.json", "{ hooks: [] }");
  await assert.rejects(discoverHooks(config), /^ConfigError: Cannot parse ".*hooks\.json"/);
  await t.write("home/hooks.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{}] }] } }));
  await assert.rejects(
    discoverHooks(config),
    /Invalid value undefined for "hooks\.Stop\[0\]\.hooks\[0\]\.type" in ".*hooks\.json": expected a string/,
  );
});

Deno.test("discoverHooks() runs the hooks of -c overrides and of the selected profile too", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "home/config.toml",
    `${hook("Stop", "file-stop")}\n[[profiles.ci.hooks.PreToolUse]]\nmatcher = "Bash"\n` +
      '[[profiles.ci.hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "profile-pre"\n',
  );
  const override =
    'hooks.PostToolUse=[{matcher="Edit",hooks=[{type="command",command="cli-post"}]}]';
  const config = await loadConfig({
    cwd: t.repo,
    env: t.env,
    flags: {},
    overrides: [override],
    profile: "ci",
  });
  const { hooks } = await discoverHooks(config);
  assert.deepEqual(hooks.map((h) => [h.event, h.matcher, h.command, h.scope, h.source]), [
    ["Stop", undefined, "file-stop", "user", join(t.home, "config.toml")],
    ["PreToolUse", "Bash", "profile-pre", "user", 'profile "ci"'],
    ["PostToolUse", "Edit", "cli-post", "user", "-c override"],
  ]);
  // The control: without the override and the profile, only the file's hook runs, once.
  const plain = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.deepEqual((await discoverHooks(plain)).hooks.map((h) => h.command), ["file-stop"]);
});
