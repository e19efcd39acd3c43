import assert from "node:assert/strict";
import type { ApprovalAnswer, ApprovalAsk, ApprovalQuestion } from "./hook.ts";
import { onFailureRerun } from "./on_failure.ts";
import { promptly } from "./_test_wait.ts";
import { until } from "../../tests/e2e/_poll.ts";
import type { CommandSandbox } from "../../sandbox/command_sandbox.ts";
import { shellRun } from "../tools/shell_run.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";

/**
 * A sandbox that "confines" a command by setting `CONFINED=1`, and reports itself enforced:
 * enough for shell.run's on-failure path, with real processes and no bubblewrap.
 */
function markingSandbox(
  retryUnsandboxed: CommandSandbox["retryUnsandboxed"],
): CommandSandbox {
  return {
    status: { mode: "workspace-write", kind: "bwrap", enforced: true, description: "test" },
    wrap: (req) => ({
      cmd: req.argv[0],
      args: req.argv.slice(1),
      env: req.escalated ? req.env : { ...req.env, CONFINED: "1" },
    }),
    retryUnsandboxed,
    close: () => Promise.resolve(),
  };
}

const DENIED_IN_SANDBOX = 'if [ -n "$CONFINED" ]; then echo "touch: x: Read-only file system" ' +
  ">&2; exit 1; fi; echo ran outside";

Deno.test("onFailureRerun() tells the model that no one could approve the rerun", async () => {
  const denied: string[] = [];
  const rerun = onFailureRerun({ onDenied: (m, callId) => denied.push(`${callId}: ${m}`) });
  const answer = await rerun("touch x", "denied", { callId: "c1" });
  assert.equal(typeof answer, "string");
  assert.match(
    String(answer),
    /failed in the sandbox; running it outside .* no one is available to give it, so it was not/,
  );
  assert.deepEqual(denied, [
    'c1: Not rerunning "touch x" unsandboxed: no one is available to approve it',
  ]);
});

Deno.test("onFailureRerun() asks the user and says when they refused", async () => {
  const asked: ApprovalQuestion[] = [];
  const answers: ApprovalAnswer[] = ["once", "deny"];
  const calls: string[] = [];
  const rerun = onFailureRerun({
    ask: ({ callId, tool, question }) => {
      calls.push(`${callId} ${tool}`);
      asked.push(question);
      return Promise.resolve(answers.shift() ?? "deny");
    },
  });
  const output = "a\ntouch: x: Read-only file system\n";
  assert.equal(await rerun("touch x", output, { callId: "c1", tool: "Bash" }), true);
  assert.match(String(await rerun("touch\u001b[2K x", "no")), /the user refused to rerun it/);
  assert.equal(asked[0].reason, "it failed in the sandbox: touch: x: Read-only file system");
  assert.equal(asked[0].unsandboxed, true);
  assert.equal(asked[1].subject, "touch\\u{1b}[2K x");
  assert.deepEqual(calls, ["c1 Bash", " shell.run"]);
});

Deno.test("onFailureRerun() withdraws its question when the turn is cancelled", async () => {
  const turn = new AbortController();
  let asked: AbortSignal | undefined;
  const rerun = onFailureRerun({
    // The question is never answered: only the turn's signal can end the wait.
    ask: (_req, signal) => (asked = signal, new Promise(() => {})),
  });
  const answer = rerun("touch x", "touch: x: Read-only file system", { signal: turn.signal });
  assert.equal(asked, turn.signal);
  turn.abort();
  await assert.rejects(promptly(answer), (error: Error) => {
    assert.equal(error.name, "AbortError");
    assert.match(error.message, /cancelled while the user was asked .*; it was not rerun/);
    return true;
  });
  const answered = onFailureRerun({ ask: () => Promise.resolve("once") });
  assert.equal(await answered("touch x", "", { signal: new AbortController().signal }), true);
});

Deno.test("shellRun() says in its output that the unsandboxed rerun was refused", async () => {
  await using ws = await tempWorkspace();
  const sandbox = markingSandbox(onFailureRerun({}));
  const out = await shellRun.run({ command: DENIED_IN_SANDBOX }, { ...ws.ctx, sandbox });
  assert.equal(out.exitCode, 1);
  assert.match(
    out.output,
    /^touch: x: Read-only file system\n\nThe command failed in the sandbox;/,
  );
  assert.match(out.output, /no one is available to give it, so it was not rerun/);
});

Deno.test("shellRun() reruns unsandboxed, without a note, once the user approves", async () => {
  await using ws = await tempWorkspace();
  const sandbox = markingSandbox(onFailureRerun({ ask: () => Promise.resolve("once") }));
  const out = await shellRun.run({ command: DENIED_IN_SANDBOX }, { ...ws.ctx, sandbox });
  assert.equal(out.exitCode, 0);
  assert.equal(out.output, "ran outside\n");
});

Deno.test("shellRun() asks with its call id and withdraws the question on cancel", async () => {
  const turn = new AbortController();
  await using ws = await tempWorkspace({}, { signal: turn.signal });
  const asked: Array<{ req: ApprovalAsk; signal: AbortSignal }> = [];
  // Never answered: only the turn's signal can end the wait.
  const sandbox = markingSandbox(onFailureRerun({
    ask: (req, signal) => (asked.push({ req, signal }), new Promise(() => {})),
  }));
  const ctx = { ...ws.ctx, sandbox, callId: "call_7" };
  const running = shellRun.run({ command: DENIED_IN_SANDBOX }, ctx);
  await until("the question", () => asked.length > 0);
  assert.equal(asked[0].req.callId, "call_7");
  assert.equal(asked[0].req.question.subject, DENIED_IN_SANDBOX);
  assert.equal(asked[0].signal.aborted, false);
  turn.abort();
  assert.equal(asked[0].signal.aborted, true);
  await assert.rejects(promptly(running), (error: Error) => {
    assert.equal(error.name, "AbortError");
    assert.match(error.message, /cancelled while the user was asked .*; it was not rerun/);
    return true;
  });
  assert.equal(asked.length, 1);
});

Deno.test("onFailureRerun() where no one can be asked takes a PermissionRequest hook's answer", async () => {
  const asked: ApprovalAsk[] = [];
  const hooked = (reply: ApprovalAnswer | undefined) =>
    onFailureRerun({
      answerUnasked: (req) => {
        asked.push(req);
        return Promise.resolve(reply);
      },
    });
  assert.equal(await hooked("once")("touch x", "Read-only file system", { callId: "c1" }), true);
  assert.equal(asked[0].question.subject, "touch x");
  assert.equal(asked[0].question.unsandboxed, true);
  assert.match(
    String(await hooked("deny")("touch x", "denied", { callId: "c2" })),
    /the user refused to rerun it/,
  );
  // The control: a hook that does not answer leaves it to no one, as before.
  assert.match(String(await hooked(undefined)("touch x", "denied")), /no one is available/);
});
