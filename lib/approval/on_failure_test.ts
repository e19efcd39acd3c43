import assert from "node:assert/strict";
import type { ApprovalAnswer, ApprovalQuestion } from "./hook.ts";
import { onFailureRerun } from "./on_failure.ts";
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
  const answer = await onFailureRerun({ onDenied: (m) => denied.push(m) })("touch x", "denied");
  assert.equal(typeof answer, "string");
  assert.match(String(answer), /failed in the sandbox; running it outside .* no terminal/);
  assert.match(String(answer), /--ask-for-approval or --sandbox/);
  assert.deepEqual(denied, ['Not rerunning "touch x" unsandboxed: no terminal to ask']);
});

Deno.test("onFailureRerun() asks the user and says when they refused", async () => {
  const asked: ApprovalQuestion[] = [];
  const answers: ApprovalAnswer[] = ["once", "deny"];
  const rerun = onFailureRerun({
    ask: (q) => {
      asked.push(q);
      return Promise.resolve(answers.shift() ?? "deny");
    },
  });
  assert.equal(await rerun("touch x", "a\ntouch: x: Read-only file system\n"), true);
  assert.match(String(await rerun("touch\u001b[2K x", "no")), /the user refused to rerun it/);
  assert.equal(asked[0].reason, "it failed in the sandbox: touch: x: Read-only file system");
  assert.equal(asked[0].unsandboxed, true);
  assert.equal(asked[1].subject, "touch\\u{1b}[2K x");
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
  assert.match(out.output, /no one can give here \(there is no terminal\)/);
});

Deno.test("shellRun() reruns unsandboxed, without a note, once the user approves", async () => {
  await using ws = await tempWorkspace();
  const sandbox = markingSandbox(onFailureRerun({ ask: () => Promise.resolve("once") }));
  const out = await shellRun.run({ command: DENIED_IN_SANDBOX }, { ...ws.ctx, sandbox });
  assert.equal(out.exitCode, 0);
  assert.equal(out.output, "ran outside\n");
});
