import assert from "node:assert/strict";
import {
  type ApprovalAnswer,
  type ApprovalAsk,
  approvalHook,
  type ApprovalQuestion,
} from "./hook.ts";
import { promptly } from "./_test_wait.ts";
import { until } from "../../tests/e2e/_poll.ts";

const CALL = { id: "call_7", name: "Bash" };
const sandbox = { mode: "workspace-write" as const, enforced: true };

function hookWith(answers: ApprovalAnswer[] | undefined, policy = "untrusted" as const) {
  const asked: ApprovalQuestion[] = [];
  const denied: string[] = [];
  const hook = approvalHook({
    policy,
    sandbox,
    mutates: () => true,
    ask: answers && (({ question }) => {
      asked.push(question);
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
  assert.match(!v.allow ? v.reason : "", /^No one is available to approve Bash \(.*\), so it was/);
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

/** A hook whose question stays pending until answered by hand; it records what it was asked. */
function pendingHook() {
  const asks: Array<
    { req: ApprovalAsk; signal: AbortSignal; answer: (a: ApprovalAnswer) => void }
  > = [];
  const hook = approvalHook({
    policy: "untrusted",
    sandbox,
    mutates: () => true,
    ask: (req, signal) => new Promise((answer) => asks.push({ req, signal, answer })),
  });
  return { hook, asks };
}

Deno.test("approvalHook() asks with the call's id and tool name and the turn's signal", async () => {
  const { hook, asks } = pendingHook();
  const turn = new AbortController();
  const verdict = hook(CALL, { capability: "shell.run", input: { command: "make" } }, turn.signal);
  await until("the first question", () => asks.length === 1);
  assert.equal(asks[0].req.callId, "call_7");
  assert.equal(asks[0].req.tool, "Bash");
  assert.equal(asks[0].req.question.subject, "make");
  assert.equal(asks[0].signal, turn.signal);
  asks[0].answer("once");
  assert.deepEqual(await verdict, { allow: true, unsandboxed: false });
});

Deno.test("approvalHook() withdraws a pending question when the turn is cancelled", async () => {
  const { hook, asks } = pendingHook();
  const turn = new AbortController();
  const input = { command: "make" };
  const verdict = hook(CALL, { capability: "shell.run", input }, turn.signal);
  await until("the first question", () => asks.length === 1);
  let withdrawn = false;
  asks[0].signal.addEventListener("abort", () => withdrawn = true);
  turn.abort();
  assert.equal(withdrawn, true, "the question's signal fired");
  // The hook does not wait for the front end: the question is never answered here.
  await assert.rejects(promptly(verdict), (error: Error) => {
    assert.equal(error.name, "AbortError");
    assert.match(error.message, /cancelled while this call waited for approval; it was not run/);
    return true;
  });
  asks[0].answer("session");
  const again = hook(CALL, { capability: "shell.run", input }, new AbortController().signal);
  await until("the second question", () => asks.length === 2);
  asks[1].answer("deny");
  assert.equal(
    (await again).allow,
    false,
    "a late answer to the withdrawn question counts for nothing",
  );
});

Deno.test("approvalHook() asks nothing once the turn is cancelled", async () => {
  const { hook, asks } = pendingHook();
  const turn = new AbortController();
  turn.abort();
  const verdict = hook(CALL, { capability: "shell.run", input: { command: "make" } }, turn.signal);
  await assert.rejects(promptly(verdict), { name: "AbortError" });
  assert.equal(asks.length, 0);
  const safe = await hook(CALL, { capability: "shell.run", input: { command: "ls" } }, turn.signal);
  assert.equal(safe.allow, true, "control: a call that needs no approval is not held up");
});
