import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import type { ApprovalQuestion } from "../../approval/hook.ts";
import { approvalView } from "../../session/tool_views/approval_view.ts";
import { promptly } from "../../approval/_test_wait.ts";
import { until } from "../../../tests/e2e/_poll.ts";
import { questionLines, replApprover } from "./approvals.ts";

const plain = makeStyle(false);

/** The view the session builds for a question about `tool`, in a session at /repo. */
function viewOf(question: ApprovalQuestion, tool = "") {
  return approvalView({ callId: "c", tool, question }, "/repo");
}

Deno.test("questionLines() shows a patch's escape sequences and C1 controls inert", () => {
  const patch = "*** Begin Patch\n*** Add File: a\x1b]0;t\x07.txt\n+ok\x9b2J\n*** End Patch\n";
  const lines = questionLines(
    viewOf({
      capability: "fs.apply_patch",
      subject: JSON.stringify({ patch }),
      reason: "it writes\x1b[2J",
      unsandboxed: false,
    }, "apply_patch"),
    plain,
  );
  assert.deepEqual(lines, [
    "Change a\\u{1b}]0;t\\u{7}.txt? (apply_patch)",
    "  add a\\u{1b}]0;t\\u{7}.txt",
    "  @@ -0,0 +1,1 @@",
    "  +ok\\u{9b}2J",
    "  why: it writes\\u{1b}[2J",
  ]);
});

Deno.test("questionLines() shows other input as JSON, escaping what JSON leaves raw", () => {
  const lines = questionLines(
    viewOf({
      capability: "web.fetch",
      subject: JSON.stringify({ url: "https://x.test/\x1b\u202e" }),
      reason: "network",
      unsandboxed: false,
    }),
    plain,
  );
  assert.deepEqual(lines.slice(1, -1), [
    "  {",
    '    "url": "https://x.test/\\u001b\\u{202e}"',
    "  }",
  ]);
});

Deno.test("questionLines() shows a command already made visible once, not twice", () => {
  const lines = questionLines(
    viewOf({
      capability: "shell.run",
      subject: "echo \\u{1b}[2J hi",
      reason: "r",
      unsandboxed: false,
    }, "Bash"),
    plain,
  );
  assert.equal(lines[0], "Run echo \\u{1b}[2J hi? (Bash)");
});

Deno.test("questionLines() names the tool as the model called it, never the capability id", () => {
  const ask = (capability: string, subject: string, unsandboxed = false) =>
    questionLines(viewOf({ capability, subject, reason: "r", unsandboxed }, "Bash"), plain);
  assert.deepEqual(ask("shell.run", "python3 -m pytest -q"), [
    "Run python3 -m pytest -q? (Bash)",
    "  why: r",
  ]);
  assert.equal(ask("shell.run", "make", true)[0], "Run make outside the sandbox? (Bash)");
  const long = "printf 'one\\n'\nprintf 'two\\n'";
  assert.deepEqual(ask("shell.start", long).slice(0, 2), ["Allow Bash?", "  $ printf 'one\\n'"]);
  assert.deepEqual(ask("fs.write", JSON.stringify({ path: "a", content: "x" })).slice(0, 3), [
    "Change a? (Bash)",
    "  add a",
    "  @@ -0,0 +1,1 @@",
  ]);
  assert.equal(ask("web.fetch", "https://x.test/")[0], "Allow Bash?");
});

const QUESTION = { capability: "shell.run", subject: "make", reason: "r", unsandboxed: false };
const REQ = { callId: "call_1", tool: "Bash", question: QUESTION, view: viewOf(QUESTION, "Bash") };

/**
 * The REPL's approval prompt over a fake input: `typed` answers at once; without it, a read
 * waits until its signal fires (`honours`) or forever.
 */
function replPrompt(opts: { typed?: string; honours?: boolean }) {
  const printed: string[] = [];
  const reads: AbortSignal[] = [];
  const approve = replApprover({
    print: (lines) => printed.push(...lines),
    style: plain,
    answer: (_prompt, signal) => {
      reads.push(signal);
      if (opts.typed !== undefined) return Promise.resolve(opts.typed);
      return new Promise((resolve) => {
        if (opts.honours) signal.addEventListener("abort", () => resolve(null));
      });
    },
  });
  return { approve, printed, reads };
}

Deno.test("replApprover() shows the question and confirms the answer", async () => {
  const { approve, printed } = replPrompt({ typed: "n not that one" });
  const reply = await approve(REQ, new AbortController().signal);
  assert.deepEqual(reply, { answer: "deny", note: "not that one" });
  assert.deepEqual(printed, ["Run make? (Bash)", "  why: r", "declined: not that one"]);
});

for (const honours of [true, false]) {
  const reading = honours ? "stops" : "goes on";
  Deno.test(`replApprover() withdraws the question on cancel (input ${reading} reading)`, async () => {
    const { approve, printed, reads } = replPrompt({ honours });
    const turn = new AbortController();
    const reply = approve(REQ, turn.signal);
    await until("the first read", () => reads.length === 1);
    assert.equal(reads[0], turn.signal, "the input is told when to stop reading");
    turn.abort();
    await assert.rejects(promptly(reply), { name: "AbortError" });
    assert.equal(printed.at(-1), "withdrawn: the turn was cancelled");
    assert.ok(!printed.some((l) => l.startsWith("declined")), "not shown as a refusal");
  });
}
