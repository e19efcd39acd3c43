/**
 * What the model reads about a refusal, a missing approver or answerer, or a cancelled question
 * says what happened and names no flag, terminal or front end: the session may run under any.
 */
import assert from "node:assert/strict";
import { approvalHook, type Approver } from "./hook.ts";
import { onFailureRerun } from "./on_failure.ts";
import { approvalDecision, type ApprovalPolicy, type SandboxFacts } from "./policy.ts";
import { promptly } from "./_test_wait.ts";
import { DECLINED_MESSAGE, NOT_AVAILABLE_MESSAGE } from "../tools/ask_user.ts";

const FRONT_END_WORDS =
  /--|\bterminal|\btty\b|\/dev\/|\brepl\b|\bexec\b|front end|\bflag|\bin this mode/i;

const ENFORCED: SandboxFacts = { mode: "workspace-write", enforced: true };
/** A broken sandbox whose fix, meant for the user, names a flag. */
const BROKEN: SandboxFacts = {
  mode: "workspace-write",
  enforced: false,
  problem: {
    message: "Command sandbox unavailable: bubblewrap is not installed",
    hint: "Install it, or restart with --sandbox danger-full-access to run commands unsandboxed",
  },
};
const READ_ONLY: SandboxFacts = { mode: "read-only", enforced: true };

const refuse: Approver = () => Promise.resolve({ answer: "deny", note: "not now" });
const never: Approver = () => new Promise(() => {});

/** The text the model gets from the hook for `command` (a refusal's reason, or the error). */
async function hookText(
  policy: ApprovalPolicy,
  sandbox: SandboxFacts,
  input: Record<string, unknown>,
  opts: { ask?: Approver; cancel?: boolean; capability?: string } = {},
): Promise<string> {
  const hook = approvalHook({ policy, sandbox, mutates: () => true, ask: opts.ask });
  const turn = new AbortController();
  if (opts.cancel) turn.abort();
  const capability = opts.capability ?? "shell.run";
  try {
    const verdict = await promptly(
      hook({ id: "c1", name: "Bash" }, { capability, input }, turn.signal),
    );
    assert.ok(!verdict.allow, `${policy} ${JSON.stringify(input)} was allowed`);
    return verdict.reason;
  } catch (error) {
    return (error as Error).message;
  }
}

async function modelTexts(): Promise<Record<string, string>> {
  const rerun = (ask?: Approver, signal?: AbortSignal) =>
    promptly(onFailureRerun({ ask })("touch x", "Read-only file system", { signal })).then(
      String,
      (error: Error) => error.message,
    );
  const cancelled = new AbortController();
  cancelled.abort();
  const escalated = { command: "npm i", sandbox_permissions: "require_escalated" };
  const readOnly = approvalDecision("on-request", {
    capability: "fs.write",
    mutates: true,
    input: {},
    sandbox: READ_ONLY,
  });
  assert.ok(readOnly.decision === "deny");
  return {
    "read-only sandbox": `${readOnly.reason}\n${readOnly.hint}`,
    "no approver": await hookText("untrusted", ENFORCED, { command: "make" }),
    "no approver, broken sandbox": await hookText("on-request", BROKEN, { command: "make" }),
    "never, broken sandbox": await hookText("never", BROKEN, { command: "make" }),
    "never, escalation": await hookText("never", ENFORCED, escalated),
    "user refused": await hookText("untrusted", ENFORCED, { command: "make" }, { ask: refuse }),
    "cancelled": await hookText("untrusted", ENFORCED, { command: "make" }, {
      ask: never,
      cancel: true,
    }),
    "rerun, no approver": await rerun(),
    "rerun refused": await rerun(refuse),
    "rerun cancelled": await rerun(never, cancelled.signal),
    "questions, no one to answer": NOT_AVAILABLE_MESSAGE,
    "questions dismissed": DECLINED_MESSAGE,
  };
}

Deno.test("approval and question texts for the model name no flag, terminal or front end", async () => {
  const texts = await modelTexts();
  for (const [path, text] of Object.entries(texts)) {
    assert.ok(text.length > 20, `${path}: ${JSON.stringify(text)}`);
    assert.doesNotMatch(text, FRONT_END_WORDS, path);
  }
  assert.match(texts["no approver"], /^No one is available to approve Bash .*, so it was not run/);
  assert.match(texts["never, broken sandbox"], /bubblewrap is not installed/);
  assert.match(texts["user refused"], /^The user refused to run Bash, saying: not now$/);
  assert.match(texts["cancelled"], /^The turn was cancelled/);
});

Deno.test("the front-end word check catches a flag, a terminal and a tty", () => {
  for (
    const text of ["rerun with --sandbox", "there is no terminal", "opens /dev/tty", "in exec"]
  ) {
    assert.match(text, FRONT_END_WORDS);
  }
  assert.doesNotMatch("approval_policy is never: the command was not run", FRONT_END_WORDS);
});
