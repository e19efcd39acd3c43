/**
 * Custom slash commands written for other agents (issue 33 §1), through the real CLI against
 * the fake provider, in a copy of the shared fixture repository set up for Claude Code, Gemini
 * CLI, Qwen Code, opencode and ours: exec expands an exact known `/name` (in a project not trusted
 * yet too; what a command runs or approves waits for trust), a writing pre-execution is refused in
 * a read-only sandbox, an unknown `/word` is sent as typed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { parseScript, startFakeProvider } from "../fake_provider/server.ts";
import { of, startAgent } from "./_acp_client.ts";
import { fakeHome, interpreter } from "./_harness_env.ts";
import { until } from "./_poll.ts";
import { pipedRepl, setupsRepo, trustedProject } from "./_setups_repo.ts";

function replies(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ reply: { text: `done ${i}` } }))
    .join("\n");
}

/** The text of the last user message a request sent. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

Deno.test("exec expands other agents' custom commands and sends unknown ones as typed", async () => {
  const repo = await setupsRepo();
  await using fake = await startFakeProvider(parseScript(replies(8)));
  const home = await fakeHome(
    fake.baseUrl,
    "chat",
    trustedProject(repo),
  );
  const userHome = await Deno.makeTempDir({ prefix: "oi-user-" });
  const env = { HOME: userHome };
  const exec = (args: string[]) => interpreter(["exec", ...args], { cwd: repo, home, env });
  try {
    // In a project nobody trusted yet, the command's text is sent; its allowed-tools wait.
    const plainHome = await fakeHome(fake.baseUrl, "chat");
    const fixit = await interpreter(["exec", "/fixit habits.py"], {
      cwd: repo,
      home: plainHome,
      env,
    });
    await Deno.remove(plainHome, { recursive: true });
    assert.equal(fixit.code, 0, fixit.stderr + fixit.stdout);
    assert.match(
      fixit.stderr,
      /\/fixit's allowed-tools \(Bash\(git diff:\*\)\) are not trusted yet and not applied[^\n]*interpreter trust/,
    );
    assert.match(lastUserText(fake.requests.at(-1)!.body), /Find and fix the bugs in habits\.py/);

    const trust = await interpreter(["trust", "--yes"], { cwd: repo, home, env });
    assert.equal(trust.code, 0, trust.stderr);

    const sent = await exec(["/fixit habits.py"]);
    assert.equal(sent.code, 0, sent.stderr);
    const first = lastUserText(fake.requests.at(-1)!.body);
    assert.match(first, /Find and fix the bugs in habits\.py\.\n\nExplain each fix in one line\./);
    assert.doesNotMatch(first, /\/fixit/);

    const oneline = await exec(["/git:oneline the last commit"]);
    assert.equal(oneline.code, 0, oneline.stderr);
    const gemini = lastUserText(fake.requests.at(-1)!.body);
    assert.match(gemini, /Explain this commit for the last commit:\n[0-9a-f]{7,} Fixture commit/);

    const qwen = await exec(["/todo the loop"]);
    assert.equal(qwen.code, 0, qwen.stderr);
    assert.match(
      lastUserText(fake.requests.at(-1)!.body),
      /in def habit\(\):\n {4}return 1\n about the loop/,
    );

    const lastlog = await exec(["-a", "untrusted", "/lastlog the team"]);
    assert.equal(lastlog.code, 0, lastlog.stderr);
    assert.match(
      lastlog.stderr,
      /note: \/lastlog: it asks for the model "haiku", which this provider does not offer: this turn runs on the session's model \(fake-model\)/,
    );
    assert.match(
      lastUserText(fake.requests.at(-1)!.body),
      /^Last commit: Fixture commit\nSummarize it for the team\.$/m,
    );

    await Deno.mkdir(join(userHome, ".claude/commands"), { recursive: true });
    await Deno.writeTextFile(join(userHome, ".claude/commands/hello.md"), "Mine: hi $ARGUMENTS\n");
    const clash = await exec(["/hello you"]);
    assert.equal(clash.code, 0, clash.stderr);
    assert.equal(lastUserText(fake.requests.at(-1)!.body).trim(), "Mine: hi you");
    const warned = clash.stderr.match(/warning: The command "hello" of .*/g) ?? [];
    assert.equal(warned.length, 1, clash.stderr);
    assert.match(
      warned[0],
      /\.agents\/commands\/hello\.md is not used: .*\.claude\/commands\/hello\.md/,
    );

    const unknown = await exec(["/nosuch thing"]);
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.match(lastUserText(fake.requests.at(-1)!.body), /\/nosuch thing/);

    const before = fake.requests.length;
    const stamp = await exec(["-s", "read-only", "-a", "never", "/stamp"]);
    assert.notEqual(stamp.code, 0, stamp.stderr);
    assert.match(
      stamp.stderr,
      /\/stamp \(.*stamp\.md, line 4\): the command `touch stamped\.txt && echo stamped` failed/,
    );
    assert.equal(fake.requests.length, before, "nothing was sent");
    assert.equal(await Deno.stat(join(repo, "stamped.txt")).then(() => true, () => false), false);
  } finally {
    for (const dir of [repo, home, userHome]) await Deno.remove(dir, { recursive: true });
  }
});

const SKILL_CALL = [
  { reply: { tool_calls: [{ name: "Skill", args: { skill: "hello", args: "the team" } }] } },
  { expect: { last_tool_result_contains: "Say hello to the team." }, reply: { text: "skilled" } },
].map((line) => JSON.stringify(line)).join("\n");

Deno.test("the REPL lists custom commands with their files and runs one; ACP offers and runs them; claude-code's model may invoke one", async () => {
  const repo = await setupsRepo();
  await using fake = await startFakeProvider(parseScript(`${replies(2)}\n${SKILL_CALL}`));
  const home = await fakeHome(
    fake.baseUrl,
    "chat",
    trustedProject(repo),
  );
  try {
    const repl = await pipedRepl(["-s", "read-only"], {
      cwd: repo,
      home,
      stdin: "/commands\n/hello the team\n",
      env: { NO_COLOR: "1" },
    });
    assert.equal(repl.code, 0, repl.stdout + repl.stderr);
    assert.match(
      repl.stdout,
      /\/fixit \[file\] +Fix the bugs in a file \(Claude Code, project: \.claude\/commands\/fixit\.md\)/,
    );
    assert.match(
      repl.stdout,
      /\/git:oneline +Explain the last commit \(Gemini CLI, project: \.gemini\/commands\/git\/oneline\.toml\)/,
    );
    assert.match(
      repl.stdout,
      /\/hello +Say hello \(interpreter, project: \.agents\/commands\/hello\.md\)/,
    );
    assert.match(
      repl.stdout,
      /\/explain .*\(opencode, project: \.opencode\/command\/explain\.md\)/,
    );
    assert.match(lastUserText(fake.requests.at(-1)!.body), /^Say hello to the team\.$/m);

    const a = startAgent([], { cwd: repo, home });
    try {
      await a.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      const { sessionId } = await a.agent.request(acp.methods.agent.session.new, {
        cwd: repo,
        mcpServers: [],
      });
      await until(
        "the custom commands",
        () => of(a.updates, "available_commands_update").length === 2,
      );
      const offered = of(a.updates, "available_commands_update")[1].availableCommands;
      const fixit = offered.find((c) => c.name === "fixit");
      assert.equal(fixit?.description, "Fix the bugs in a file");
      assert.deepEqual(fixit?.input, { hint: "[file]" });
      assert.ok(offered.some((c) => c.name === "git:oneline"));
      await a.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "/explain habit the reader" }],
      });
      const sent = lastUserText(fake.requests.at(-1)!.body);
      assert.match(sent, /Explain the function habit in @habits\.py for the reader\./);
      assert.match(sent, /<file path="habits\.py">\ndef habit\(\):/);
    } finally {
      await a.close();
    }

    const skill = await interpreter(["exec", "--harness", "claude-code", "greet"], {
      cwd: repo,
      home,
    });
    assert.equal(skill.code, 0, skill.stderr);
    assert.equal(skill.stdout.trim(), "skilled");
    const offered = JSON.stringify(fake.requests.at(-2)!.body);
    assert.match(offered, /hello: Say hello/);
    assert.match(offered, /fixit: Fix the bugs in a file/);
    assert.doesNotMatch(
      offered,
      /frontend:component|lastlog/,
      "user-only and shell commands are not offered",
    );
  } finally {
    for (const dir of [repo, home]) await Deno.remove(dir, { recursive: true });
  }
});
