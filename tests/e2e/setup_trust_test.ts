/**
 * Other agents' instruction files, trust, `debug config` and protected names (issue 33 §6 and its
 * Decisions), through the real CLI against the fake provider, in copies of the shared fixture
 * repository: gemini-cli sends GEMINI.md, qwen-code QWEN.md and claude-code CLAUDE.md then
 * CLAUDE.local.md, each without the others' files; `interpreter trust` lists the project's
 * runnable definitions of several kinds; `debug config` lists the files read and the user-level
 * kinds skipped; a command cannot write `.claude/settings.json` under workspace-write.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { fakeHome, interpreter, tempDirs } from "./_harness_env.ts";
import { setupsRepo, trustedProject } from "./_setups_repo.ts";

function script(lines: unknown[]) {
  return parseScript(lines.map((line) => JSON.stringify(line)).join("\n"));
}

Deno.test("each harness sends its vendor's instruction files and not the others'", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(setupsRepo());
  const userHome = await dirs.add(Deno.makeTempDir({ prefix: "oi-user-" }));
  await using fake = await startFakeProvider(script([
    { reply: { text: "gemini" } },
    { reply: { text: "qwen" } },
    { reply: { text: "claude" } },
  ]));
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat"));
  const sent: string[] = [];
  for (const harness of ["gemini-cli", "qwen-code", "claude-code"]) {
    const out = await interpreter(["exec", "--harness", harness, "hi"], {
      cwd: repo,
      home,
      env: { HOME: userHome },
    });
    assert.equal(out.code, 0, out.stderr);
    sent.push(JSON.stringify(fake.requests.at(-1)!.body));
  }
  const [gemini, qwen, claude] = sent;
  assert.match(gemini, /GEMINI-FIXTURE/);
  assert.doesNotMatch(gemini, /QWEN-FIXTURE|CLAUDE-LOCAL-FIXTURE/);
  assert.match(qwen, /QWEN-FIXTURE/);
  assert.doesNotMatch(qwen, /GEMINI-FIXTURE|CLAUDE-FIXTURE/);
  assert.match(claude, /CLAUDE-FIXTURE[^]*CLAUDE-LOCAL-FIXTURE/, "CLAUDE.local.md after CLAUDE.md");
  assert.doesNotMatch(claude, /GEMINI-FIXTURE|QWEN-FIXTURE/);
});

Deno.test("trust lists several kinds, debug config names the sources, and a command cannot write .claude/settings.json", async () => {
  await using dirs = tempDirs();
  const repo = await dirs.add(setupsRepo());
  const userHome = await dirs.add(Deno.makeTempDir({ prefix: "oi-user-" }));
  await Deno.mkdir(join(userHome, ".claude"));
  await Deno.writeTextFile(join(userHome, ".claude", "settings.json"), '{"env": {"A": "1"}}\n');
  const cmd = 'echo planted >> .claude/settings.json; echo "settings:$?"; ' +
    'echo ok > notes.txt; echo "notes:$?"';
  await using fake = await startFakeProvider(script([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd } }] } },
    { expect: { last_tool_result_contains: "notes:0" }, reply: { text: "tried" } },
  ]));
  const trusted = trustedProject(repo);
  const home = await dirs.add(fakeHome(fake.baseUrl, "chat", trusted));
  const opts = { cwd: repo, home, env: { HOME: userHome } };

  const listed = await interpreter(["trust"], opts);
  assert.equal(listed.code, 2, listed.stderr);
  assert.match(listed.stdout, /defines .*hooks.*MCP servers.* not trusted yet/);
  assert.match(
    listed.stdout,
    /\d+\. hook PreToolUse Bash: .*block-push\.sh"\n +from .*\.claude\/settings\.json/,
  );
  assert.match(
    listed.stdout,
    /\d+\. MCP server notes: .*echo-mcp\.mjs notes\n +from .*\.mcp\.json/,
  );
  assert.match(listed.stdout, /\d+\. allow rule Bash\(npm run test:\*\)/);
  assert.match(listed.stderr, /stdin is not a terminal[^]*interpreter trust --yes/);

  const debug = await interpreter(["debug", "config"], opts);
  assert.equal(debug.code, 0, debug.stderr);
  assert.match(
    debug.stdout,
    /# {3}commands:\n(# {5}.*\n)*# {5}.*\/\.claude\/commands \(Claude Code, project\)/,
  );
  assert.match(debug.stdout, /# {5}.*\/\.mcp\.json \(Claude Code, project\)/);
  assert.match(debug.stdout, /# {5}.*\/QWEN\.md \(Qwen Code, project\): read by qwen-code/);
  assert.match(
    debug.stdout,
    /# other agents' setups skipped:\n(.*\n)*# {3}.*\/\.claude\/settings\.json \(Claude Code, user\): hooks, permissions, env not imported; add "hooks", "permissions", "env" to import_user_setups/,
  );

  const before = await Deno.readTextFile(join(repo, ".claude", "settings.json"));
  const exec = await interpreter(["exec", "-s", "workspace-write", "write"], opts);
  assert.equal(exec.code, 0, exec.stderr);
  assert.equal(exec.stdout.trim(), "tried");
  assert.match(JSON.stringify(fake.requests[1].body), /Read-only file system[^]*settings:[12]/);
  assert.equal(await Deno.readTextFile(join(repo, ".claude", "settings.json")), before);
  assert.equal(
    await Deno.readTextFile(join(repo, "notes.txt")),
    "ok\n",
    "control: the rest writes",
  );
});
