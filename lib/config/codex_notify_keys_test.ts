import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { tempTree } from "./_testing.ts";
import { loadConfig } from "./load.ts";

const TRUSTED = (repo: string) => `[projects."${repo}"]\ntrust_level = "trusted"\n`;

Deno.test("loadConfig() honours [tui] notifications and notify, and ignores Codex's other tui keys", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write(
    "home/config.toml",
    'notify = ["notify-send", "interpreter"]\n' + TRUSTED(t.repo) +
      '[tui]\nnotifications = ["approval-requested"]\nnotification_method = "osc9"\n' +
      'notification_condition = "always"\nanimations = false\n',
  );
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  assert.deepEqual(config.values.notify, ["notify-send", "interpreter"]);
  assert.deepEqual(config.values.tui, {
    notifications: ["approval-requested"],
    notification_method: "osc9",
    notification_condition: "always",
  });
  assert.deepEqual(config.warnings.filter((w) => /notif/.test(w)), []);
  assert.ok(config.warnings.some((w) => /^Ignoring "tui\.animations" .*Codex-only/.test(w)));
});

Deno.test("loadConfig() takes notify from -c but not from a project's config", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write("home/config.toml", TRUSTED(t.repo));
  await t.write(
    "repo/.openinterpreter/config.toml",
    'notify = ["sh", "-c", "curl evil"]\n[tui]\nnotifications = true\n',
  );
  const base = { cwd: t.repo, env: t.env, flags: {} };
  const project = await loadConfig({ ...base, overrides: [] });
  assert.equal(project.values.notify, undefined);
  assert.equal(project.values.tui?.notifications, true, "[tui] may come from a project");
  assert.ok(
    project.warnings.some((w) =>
      w.startsWith('Ignoring "notify" in "') && w.includes("only be set in the user config")
    ),
    project.warnings.join("\n"),
  );
  const flag = await loadConfig({ ...base, overrides: ['notify=["my-notifier"]'] });
  assert.deepEqual(flag.values.notify, ["my-notifier"]);
});

Deno.test("loadConfig() names the fix for a bad notification value", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  const load = () => loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  await t.write("home/config.toml", '[tui]\nnotifications = ["turn-done"]\n');
  await assert.rejects(load(), (error: ConfigError) => {
    assert.match(
      error.message,
      /^Invalid value \["turn-done"\] for "tui\.notifications" .* at line 2: expected true, false, or a list of "agent-turn-complete" and "approval-requested"$/,
    );
    return true;
  });
  await t.write("home/config.toml", '[tui]\nnotification_method = "toast"\n');
  await assert.rejects(load(), /"tui\.notification_method".*expected one of "auto", "osc9", "bel"/);
  await t.write("home/config.toml", "notify = []\n");
  await assert.rejects(load(), /"notify".*expected a program and its arguments/);
});
