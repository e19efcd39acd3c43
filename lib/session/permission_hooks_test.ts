import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { sessionWorkspace } from "./_test_session.ts";
import { openSession, type SessionConfig } from "./open.ts";
import type { ApprovalRequest } from "./types.ts";

const signal = new AbortController().signal;
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** A PreToolUse hook on Bash that answers `permissionDecision: "ask"` for commands naming "ask". */
async function askHook(dir: string): Promise<string> {
  const ask = '{"hookSpecificOutput":{"hookEventName":"PreToolUse",' +
    '"permissionDecision":"ask","permissionDecisionReason":"touching files needs a yes"}}';
  const file = join(dir, "pre.sh");
  await Deno.writeTextFile(file, `case "$(cat)" in *ask*) printf '%s' '${ask}';; esac\n`);
  return `[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\n` +
    `type = "command"\ncommand = ${JSON.stringify(`sh '${file}'`)}\n`;
}

/** Full access and approval "never": nothing would be asked but for the hook. */
function configOf(cwd: string): SessionConfig {
  return { cwd, harness: "native", sandbox: "danger-full-access", approval: "never" };
}

Deno.test('a PreToolUse hook\'s permissionDecision "ask" asks the user, whatever the policy', async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch ask-yes.txt" } }] } },
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch ask-no.txt" } }] } },
    {
      expect: { last_tool_result_contains: "refused" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch plain.txt" } }] },
    },
    { reply: { text: "done" } },
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl, await askHook(dir));
  try {
    const asked: ApprovalRequest[] = [];
    await using session = await openSession(configOf(ws.cwd), {
      onEvent: () => {},
      approve: (req) => {
        asked.push(req);
        return Promise.resolve(req.question.subject.includes("ask-yes") ? "once" : "deny");
      },
    }, { env: ws.env });
    const outcome = await session.prompt("go", signal);
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
    assert.deepEqual(asked.map((r) => r.question.subject), [
      "touch ask-yes.txt",
      "touch ask-no.txt",
    ]);
    assert.match(asked[0].question.reason, /A PreToolUse hook asks: touching files needs a yes/);
    assert.equal(await exists(join(ws.cwd, "ask-yes.txt")), true);
    assert.equal(await exists(join(ws.cwd, "ask-no.txt")), false);
    // The control: a call the hook does not ask about runs unasked under approval "never".
    assert.equal(await exists(join(ws.cwd, "plain.txt")), true);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test('a PreToolUse hook\'s "ask" denies the call where no one can answer', async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch ask.txt" } }] } },
    { expect: { last_tool_result_contains: "No one is available" }, reply: { text: "done" } },
  ]);
  await using ws = await sessionWorkspace(fake.baseUrl, await askHook(dir));
  try {
    await using session = await openSession(configOf(ws.cwd), { onEvent: () => {} }, {
      env: ws.env,
    });
    assert.deepEqual(await session.prompt("go", signal), {
      status: "completed",
      finalText: "done",
    });
    assert.equal(await exists(join(ws.cwd, "ask.txt")), false);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a PermissionRequest hook answers where no one can be asked (exec), and without one the call is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_hooks_" });
  await using fake = await startFakeProvider([
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch allowed.txt" } }] } },
    { reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch refused.txt" } }] } },
    {
      expect: { last_tool_result_contains: "not this one" },
      reply: { tool_calls: [{ name: "exec_command", args: { cmd: "touch unheard.txt" } }] },
    },
    { expect: { last_tool_result_contains: "No one is available" }, reply: { text: "done" } },
  ]);
  const allow = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest",' +
    '"decision":{"behavior":"allow"}}}';
  const deny = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest",' +
    '"decision":{"behavior":"deny","message":"not this one"}}}';
  const file = join(dir, "permission.sh");
  await Deno.writeTextFile(
    file,
    `case "$(cat)" in *allowed*) printf '%s' '${allow}';; *refused*) printf '%s' '${deny}';; esac\n`,
  );
  const hook =
    `[[hooks.PermissionRequest]]\nmatcher = "Bash"\n[[hooks.PermissionRequest.hooks]]\n` +
    `type = "command"\ncommand = ${JSON.stringify(`sh '${file}'`)}\n`;
  await using ws = await sessionWorkspace(fake.baseUrl, hook);
  try {
    await using session = await openSession(
      { ...configOf(ws.cwd), approval: "untrusted" },
      { onEvent: () => {} },
      { env: ws.env },
    );
    assert.deepEqual(await session.prompt("go", signal), {
      status: "completed",
      finalText: "done",
    });
    assert.equal(await exists(join(ws.cwd, "allowed.txt")), true);
    assert.equal(await exists(join(ws.cwd, "refused.txt")), false);
    // The control: a question the hook does not answer is refused as before.
    assert.equal(await exists(join(ws.cwd, "unheard.txt")), false);
    assert.deepEqual(fake.failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
