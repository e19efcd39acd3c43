import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionConfig, type SessionEvent } from "./open.ts";

const signal = new AbortController().signal;

/** A TOML hook group for `event` running shell script `script` (written to `dir`). */
async function hookToml(
  dir: string,
  hook: { event: string; matcher?: string; name: string; script: string },
): Promise<string> {
  const file = join(dir, `${hook.name}.sh`);
  await Deno.writeTextFile(file, hook.script);
  const matcher = hook.matcher === undefined ? "" : `matcher = ${JSON.stringify(hook.matcher)}\n`;
  return `[[hooks.${hook.event}]]\n${matcher}[[hooks.${hook.event}.hooks]]\n` +
    `type = "command"\ncommand = ${JSON.stringify(`sh '${file}'`)}\n`;
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Full access and no approvals: the tests are about hooks, not the sandbox. */
function configOf(cwd: string, more: Partial<SessionConfig> = {}): SessionConfig {
  return { cwd, harness: "native", sandbox: "danger-full-access", approval: "never", ...more };
}

Deno.test("PreToolUse hooks block a command (exit 2) and rewrite another; PostToolUse and SessionStart add context; UserPromptSubmit blocks a prompt", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    {
      expect: { user_contains: "session-start-note" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch forbidden.txt" } }] },
    },
    {
      expect: { last_tool_result_contains: "forbidden commands are not allowed here" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "echo original > out.txt" } }] },
    },
    { expect: { last_tool_result_contains: "post-hook-note" }, reply: { text: "done" } },
  ]);
  const rewrite = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: { command: "echo rewritten > out.txt" },
    },
  });
  const hooks = [
    await hookToml(dir, {
      event: "SessionStart",
      matcher: "startup",
      name: "start",
      script: "cat > /dev/null; echo session-start-note\n",
    }),
    await hookToml(dir, {
      event: "UserPromptSubmit",
      name: "prompt",
      script: `case "$(cat)" in *secret*) echo "no secrets in prompts" >&2; exit 2;; esac\n`,
    }),
    await hookToml(dir, {
      event: "PreToolUse",
      matcher: "Bash",
      name: "pre",
      script: `input=$(cat); printf '%s\\n' "$input" >> '${dir}/pre.jsonl'\n` +
        `case "$input" in\n` +
        `  *forbidden*) echo "forbidden commands are not allowed here" >&2; exit 2;;\n` +
        `  *original*) printf '%s' '${rewrite}';;\nesac\n`,
    }),
    await hookToml(dir, {
      event: "PostToolUse",
      matcher: "^Bash$",
      name: "post",
      script: `cat > '${dir}/post.json'\nprintf '%s' '{"hookSpecificOutput":` +
        `{"hookEventName":"PostToolUse","additionalContext":"post-hook-note"}}'\n`,
    }),
  ];
  await using ws = await sessionWorkspace(fake.baseUrl, hooks.join("\n"));
  try {
    await using session = await openSession(configOf(ws.cwd), { onEvent: () => {} }, {
      env: ws.env,
    });
    const outcome = await session.prompt("go", signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(fake.failures, []);
    assert.equal(
      await exists(join(ws.cwd, "forbidden.txt")),
      false,
      "the blocked call did not run",
    );
    assert.equal(await Deno.readTextFile(join(ws.cwd, "out.txt")), "rewritten\n");
    const [blocked, rewritten] = (await Deno.readTextFile(join(dir, "pre.jsonl"))).trim()
      .split("\n").map((line) => JSON.parse(line));
    assert.equal(blocked.hook_event_name, "PreToolUse");
    assert.equal(blocked.tool_name, "Bash", "the native harness's exec_command is Bash to hooks");
    assert.equal(blocked.tool_input.command, "touch forbidden.txt");
    assert.equal(blocked.session_id, session.id);
    assert.equal(blocked.cwd, ws.cwd);
    assert.equal(blocked.transcript_path, session.status().sessionFile);
    assert.equal(blocked.permission_mode, "bypassPermissions");
    assert.equal(typeof blocked.turn_id, "string");
    assert.equal(rewritten.tool_input.command, "echo original > out.txt");
    const post = JSON.parse(await Deno.readTextFile(join(dir, "post.json")));
    assert.equal(post.tool_input.command, "echo rewritten > out.txt");
    assert.equal(post.tool_response.exitCode, 0);
    await assert.rejects(
      session.prompt("my secret", signal),
      /^PromptBlockedError: A UserPromptSubmit hook blocked the prompt: no secrets in prompts$/,
    );
    assert.equal(fake.requests.length, 3, "a blocked prompt is not sent");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a Stop hook keeps the turn going once, with its reason as the next message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    { reply: { text: "first answer" } },
    { expect: { user_contains: "run the tests before you stop" }, reply: { text: "tests pass" } },
  ]);
  const stop = await hookToml(dir, {
    event: "Stop",
    name: "stop",
    script: `input=$(cat); printf '%s\\n' "$input" >> '${dir}/stop.jsonl'\n` +
      `case "$input" in *'"stop_hook_active":true'*) exit 0;; esac\n` +
      `echo "run the tests before you stop" >&2; exit 2\n`,
  });
  await using ws = await sessionWorkspace(fake.baseUrl, stop);
  try {
    await using session = await openSession(configOf(ws.cwd), { onEvent: () => {} }, {
      env: ws.env,
    });
    const outcome = await session.prompt("go", signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "tests pass" });
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(fake.failures, []);
    const inputs = (await Deno.readTextFile(join(dir, "stop.jsonl"))).trim().split("\n")
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      inputs.map((i) => [i.stop_hook_active, i.last_assistant_message]),
      [[false, "first answer"], [true, "tests pass"]],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a project's hook runs only once trusted, until its definition changes; the bypass flag runs it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider(
    Array.from({ length: 4 }, () => ({ reply: { text: "ok" } })),
  );
  await using ws = await sessionWorkspace(fake.baseUrl);
  const marker = join(dir, "marker");
  const projectConfig = join(ws.cwd, ".openinterpreter", "config.toml");
  await Deno.mkdir(join(ws.cwd, ".openinterpreter"));
  const write = (word: string) =>
    hookToml(dir, {
      event: "UserPromptSubmit",
      name: word,
      script: `cat > /dev/null; echo ${word} >> '${marker}'\n`,
    }).then((toml) => Deno.writeTextFile(projectConfig, toml));
  await write("first");
  const userConfig = join(ws.home, "config.toml");
  await Deno.writeTextFile(
    userConfig,
    `\n[projects.${JSON.stringify(ws.cwd)}]\ntrust_level = "trusted"\n`,
    { append: true },
  );
  const open = async (more: Partial<SessionConfig> = {}) => {
    const events: SessionEvent[] = [];
    const session = await openSession(configOf(ws.cwd, more), { onEvent: (e) => events.push(e) }, {
      env: ws.env,
    });
    const warnings = events.flatMap((e) => e.type === "warning" ? [e.message] : []);
    return { session, warnings };
  };
  const ran = () => Deno.readTextFile(marker).catch(() => "");
  try {
    {
      const { session, warnings } = await open();
      await using _ = session;
      assert.ok(
        warnings.some((w) => /^1 hook of the project ".*" is not trusted yet/.test(w)),
        warnings.join("\n"),
      );
      assert.deepEqual(session.hooks.list().map((h) => [h.scope, h.trusted]), [["project", false]]);
      await session.prompt("one", signal);
      assert.equal(await ran(), "", "an untrusted hook does not run");
      const trusted = await session.hooks.trust([1]);
      assert.deepEqual(trusted.map((h) => h.index), [1]);
      await session.prompt("two", signal);
      assert.equal(await ran(), "first\n");
    }
    {
      const { session, warnings } = await open();
      await using _ = session;
      assert.deepEqual(warnings.filter((w) => /not trusted yet/.test(w)), []);
      assert.equal(session.hooks.list()[0].trusted, true, "trust is kept per definition");
    }
    await write("second");
    {
      const { session, warnings } = await open();
      await using _ = session;
      assert.ok(warnings.some((w) => /not trusted yet/.test(w)), "a changed hook needs trust");
      assert.equal(session.hooks.list()[0].trusted, false);
    }
    {
      const { session } = await open({ bypassDefinitionTrust: true });
      await using _ = session;
      await session.prompt("three", signal);
      assert.equal(await ran(), "first\nsecond\n");
    }
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a PermissionRequest hook answers approval questions in the user's place", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch allowed.txt" } }] } },
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch refused.txt" } }] } },
    { expect: { last_tool_result_contains: "not this one" }, reply: { text: "done" } },
  ]);
  const allow = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest",' +
    '"decision":{"behavior":"allow"}}}';
  const deny = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest",' +
    '"decision":{"behavior":"deny","message":"not this one"}}}';
  const hook = await hookToml(dir, {
    event: "PermissionRequest",
    matcher: "Bash",
    name: "permission",
    script:
      `case "$(cat)" in *allowed*) printf '%s' '${allow}';; *) printf '%s' '${deny}';; esac\n`,
  });
  await using ws = await sessionWorkspace(fake.baseUrl, hook);
  try {
    const asked: string[] = [];
    await using session = await openSession(
      configOf(ws.cwd, { approval: "untrusted" }),
      {
        onEvent: () => {},
        approve: (req) => {
          asked.push(req.question.subject);
          return Promise.resolve("deny");
        },
      },
      { env: ws.env },
    );
    const outcome = await session.prompt("go", signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(asked, [], "the hook answered both questions");
    assert.equal(await exists(join(ws.cwd, "allowed.txt")), true);
    assert.equal(await exists(join(ws.cwd, "refused.txt")), false);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
