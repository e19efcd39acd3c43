import assert from "node:assert/strict";
import { type ApprovalAnswer, approvalHook, type ApprovalQuestion } from "./hook.ts";

const CALL = { name: "Bash" };
const sandbox = { mode: "workspace-write" as const, enforced: true };

function hookWith(answers: ApprovalAnswer[] | undefined, policy = "untrusted" as const) {
  const asked: ApprovalQuestion[] = [];
  const denied: string[] = [];
  const hook = approvalHook({
    policy,
    sandbox,
    mutates: () => true,
    ask: answers && ((q) => {
      asked.push(q);
      return Promise.resolve(answers.shift() ?? "deny");
    }),
    onDenied: (m) => denied.push(m),
  });
  return { hook, asked, denied };
}

Deno.test("approvalHook() denies with a clear message when no one can be asked", async () => {
  const { hook, denied } = hookWith(undefined);
  const v = await hook(CALL, { capability: "shell.run", input: { command: "ls && rm -rf x" } });
  assert.equal(v.allow, false);
  assert.match(!v.allow ? v.reason : "", /Approval needed to run Bash .* no terminal/);
  assert.equal(denied.length, 1);
  const safe = await hook(CALL, { capability: "shell.run", input: { command: "ls" } });
  assert.equal(safe.allow, true);
});

Deno.test("approvalHook() remembers a session approval and asks again after a one-time one", async () => {
  const { hook, asked } = hookWith(["session", "once", "deny"]);
  const npm = { capability: "shell.run", input: { command: "npm test" } };
  assert.equal((await hook(CALL, npm)).allow, true);
  assert.equal((await hook(CALL, npm)).allow, true);
  assert.equal(asked.length, 1, "approved for the session: not asked again");
  const other = { capability: "shell.run", input: { command: "make" } };
  assert.equal((await hook(CALL, other)).allow, true);
  const refused = await hook(CALL, other);
  assert.equal(refused.allow, false);
  assert.match(!refused.allow ? refused.reason : "", /The user refused to run Bash/);
});

Deno.test("approvalHook() marks an approved escalation so the command leaves the sandbox", async () => {
  const { hook, asked } = hookWith(["once"], "on-request" as never);
  const input = {
    command: "npm i",
    sandbox_permissions: "require_escalated",
    justification: "net",
  };
  const v = await hook(CALL, { capability: "shell.run", input });
  assert.deepEqual(v, { allow: true, unsandboxed: true });
  assert.equal(asked[0].justification, "net");
  assert.equal(asked[0].unsandboxed, true);
});

Deno.test("approvalHook() shows and remembers the shell, login flag and folder of a command", async () => {
  const { hook, asked } = hookWith(["session", "once", "once", "once"]);
  const run = (input: Record<string, unknown>) => hook(CALL, { capability: "shell.run", input });
  assert.equal((await run({ command: "npm test" })).allow, true);
  assert.equal((await run({ command: "npm test" })).allow, true);
  assert.equal((await run({ command: "npm test", shell: "tools/evil" })).allow, true);
  assert.equal((await run({ command: "npm test", shell: "bash", login: true })).allow, true);
  assert.equal((await run({ command: "npm test", cwd: "other" })).allow, true);
  assert.deepEqual(asked.map((q) => q.subject), [
    "npm test",
    "tools/evil -c 'npm test'",
    "bash -lc 'npm test'",
    "npm test  (in other)",
  ]);
});

Deno.test("approvalHook() shows control and bidirectional characters of a command as escapes", async () => {
  const { hook, asked } = hookWith(["once"]);
  const command = "rm -rf ~ \r\u001b[2Kls\n\u202eecho";
  await hook(CALL, { capability: "shell.run", input: { command } });
  assert.equal(asked[0].subject, "rm -rf ~ \\u{d}\\u{1b}[2Kls\n\\u{202e}echo");
});

Deno.test("approvalHook() passes the user's note on a refusal to the model", async () => {
  const hook = approvalHook({
    policy: "untrusted",
    sandbox,
    mutates: () => true,
    ask: () => Promise.resolve({ answer: "deny", note: "use the staging database" }),
  });
  const verdict = await hook(CALL, { capability: "shell.run", input: { command: "make" } });
  assert.deepEqual(verdict, {
    allow: false,
    reason: "The user refused to run Bash, saying: use the staging database",
  });
});
