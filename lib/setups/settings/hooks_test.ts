import assert from "node:assert/strict";
import { join } from "node:path";
import { tempTree } from "../../config/_testing.ts";
import { loadConfig } from "../../config/load.ts";
import { discoverHooks } from "../../hooks/discovery.ts";
import { hookTable, matcherOf } from "./hooks.ts";

Deno.test("Gemini CLI's hooks map to our events, tool names and seconds", () => {
  const warnings: string[] = [];
  const table = hookTable({ path: "/p/.gemini/settings.json", vendor: "gemini" }, {
    BeforeTool: [{
      matcher: "run_shell_command|write_file",
      hooks: [{ name: "n", type: "command", command: "check.sh", timeout: 2500 }],
    }],
    AfterAgent: [{ hooks: [{ type: "command", command: "done.sh" }] }],
    AfterModel: [{ hooks: [{ type: "command", command: "x" }] }],
  }, warnings);
  assert.deepEqual(table, {
    PreToolUse: [{
      matcher: "Bash|Write",
      hooks: [{ type: "command", command: "check.sh", timeout: 3 }],
    }],
    Stop: [{ hooks: [{ type: "command", command: "done.sh", timeout: 60 }] }],
  });
  assert.deepEqual(warnings, [
    "The AfterModel hooks of /p/.gemini/settings.json are skipped: interpreter has no such " +
    "event (it has SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, " +
    "PostToolUse, Notification, PreCompact, PostCompact, SubagentStart, SubagentStop, Stop)",
  ]);
});

Deno.test("Claude Code's hooks keep their shape; other handler types and events are skipped with a note", () => {
  const warnings: string[] = [];
  const table = hookTable({ path: "/p/.claude/settings.json", vendor: "claude" }, {
    PreToolUse: [{
      matcher: "Edit, Write",
      hooks: [
        { type: "command", command: "lint.sh", statusMessage: "Linting" },
        { type: "prompt", prompt: "is this ok?" },
      ],
    }],
    SessionEnd: [{ hooks: [{ type: "command", command: "bye.sh" }] }],
    Stop: "not a list",
  }, warnings);
  assert.deepEqual(table, {
    PreToolUse: [{
      matcher: "Edit|Write",
      hooks: [{ type: "command", command: "lint.sh", timeout: 600, statusMessage: "Linting" }],
    }],
  });
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /hook PreToolUse\[0\] of .*, hook 1 is skipped: it has type "prompt"/);
  assert.match(
    warnings[1],
    /The SessionEnd hooks of .* are skipped: interpreter has no such event/,
  );
  assert.match(warnings[2], /The Stop hooks of .* are skipped: expected a list of groups/);
});

Deno.test("matcherOf() keeps regular expressions and refuses broken ones", () => {
  assert.equal(matcherOf("*", "claude"), undefined);
  assert.equal(matcherOf("^mcp__github__.*", "claude"), "^mcp__github__.*");
  assert.equal(matcherOf("read_file", "qwen"), "Read");
  assert.equal(matcherOf("(Bash", "claude"), null);
  assert.equal(matcherOf(3, "claude"), null);
});

Deno.test("discoverHooks() adds a trusted project's vendor hooks, and the user's only when imported", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "", "user/x": "" });
  const user = join(t.root, "user");
  const hooks = (command: string) =>
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    });
  await t.write("user/.claude/settings.json", hooks("user-claude"));
  await t.write("repo/.claude/settings.json", hooks("project-claude"));
  await t.write("repo/.qwen/settings.json", hooks("project-qwen"));
  await t.write("home/config.toml", `[projects."${t.repo}"]\ntrust_level = "trusted"\n`);
  const env = { ...t.env, HOME: user };
  const load = () => loadConfig({ cwd: t.repo, env, flags: {}, overrides: [] });
  const found = await discoverHooks(await load(), { env });
  assert.deepEqual(found.hooks.map((h) => [h.command, h.scope, h.source]), [
    ["project-claude", "project", join(t.repo, ".claude", "settings.json")],
    ["project-qwen", "project", join(t.repo, ".qwen", "settings.json")],
  ]);
  await t.write(
    "home/config.toml",
    `import_user_setups = ["hooks"]\n[projects."${t.repo}"]\ntrust_level = "trusted"\n`,
  );
  const imported = await discoverHooks(await load(), { env });
  assert.deepEqual(imported.hooks.map((h) => [h.command, h.scope]), [
    ["user-claude", "user"],
    ["project-claude", "project"],
    ["project-qwen", "project"],
  ]);
  await t.write("home/config.toml", 'import_user_setups = ["hooks"]\n');
  const untrusted = await discoverHooks(await load(), { env });
  assert.deepEqual(untrusted.hooks.map((h) => h.command), ["user-claude"]);
});

Deno.test("a broken settings file is one warning naming it", async () => {
  await using t = await tempTree({ "repo/.git/HEAD": "" });
  await t.write("repo/.gemini/settings.json", '{ "hooks": { "BeforeTool": [ }');
  await t.write("home/config.toml", `[projects."${t.repo}"]\ntrust_level = "trusted"\n`);
  const config = await loadConfig({ cwd: t.repo, env: t.env, flags: {}, overrides: [] });
  const found = await discoverHooks(config, { env: t.env });
  assert.deepEqual(found.hooks, []);
  assert.equal(found.warnings.length, 1);
  assert.match(found.warnings[0], /\.gemini\/settings\.json(, line 1)? is not valid JSON/);
});
