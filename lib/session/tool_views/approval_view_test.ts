import assert from "node:assert/strict";
import type { ApprovalQuestion } from "../../approval/hook.ts";
import { APPROVAL_OPTIONS, approvalView } from "./approval_view.ts";

const ask = (question: ApprovalQuestion, tool = "Bash") => ({ callId: "c1", tool, question });

Deno.test("approvalView() of a command: the command, where it runs, why, and the three answers", () => {
  const question = {
    capability: "shell.run",
    subject: "npm test",
    reason: "approval_policy is untrusted",
    justification: "to check the fix",
    unsandboxed: true,
  };
  const view = approvalView(ask(question), "/repo");
  assert.deepEqual(
    { ...view, options: view.options.map((o) => o.answer) },
    {
      tool: "Bash",
      capability: "shell.run",
      kind: "command",
      command: "npm test",
      cwd: "/repo",
      changes: [],
      subject: "npm test",
      body: ["$ npm test"],
      heading: "Run npm test outside the sandbox?",
      headingNamesTool: false,
      bodyInHeading: true,
      reason: "approval_policy is untrusted",
      justification: "to check the fix",
      unsandboxed: true,
      options: ["once", "session", "deny"],
    },
  );
  const call = { kind: "command" as const, command: "npm test", cwd: "web", callId: "c1" };
  const inWeb = approvalView(ask(question), "/repo", { ...call, name: "Bash", status: "running" });
  assert.equal(inWeb.cwd, "/repo/web", "the call's working directory, resolved");
  const long = approvalView(ask({ ...question, subject: "make\nmake test" }), "/repo");
  assert.deepEqual([long.heading, long.headingNamesTool, long.bodyInHeading, long.body], [
    "Allow Bash outside the sandbox?",
    true,
    false,
    ["$ make\nmake test"],
  ]);
});

Deno.test("approvalView() of an edit: each file with its diff, asked as a change", () => {
  const subject = JSON.stringify({ path: "src/a.py", old_string: "x = 1", new_string: "x = 2" });
  const view = approvalView(
    ask({ capability: "fs.edit", subject, reason: "r", unsandboxed: false }, "Edit"),
    "/repo",
  );
  assert.equal(view.kind, "file_change");
  assert.equal(view.heading, "Change src/a.py?");
  assert.deepEqual(view.changes.map((c) => [c.path, c.kind]), [["/repo/src/a.py", "update"]]);
  assert.deepEqual(view.body.filter((l) => !l.startsWith("@@")), [
    "update src/a.py",
    "-x = 1",
    "+x = 2",
  ]);
});

Deno.test("approvalView() of another tool: its input as JSON lines, the tool named as the model called it", () => {
  const subject = JSON.stringify({ url: "https://x.test/" });
  const view = approvalView(
    ask({ capability: "web.fetch", subject, reason: "network", unsandboxed: false }, "WebFetch"),
    "/repo",
  );
  assert.equal(view.kind, "other");
  assert.equal(view.heading, "Allow WebFetch?");
  assert.deepEqual(view.body, ["{", '  "url": "https://x.test/"', "}"]);
  const unnamed = approvalView(ask({ ...view, capability: "web.fetch" }, ""), "/repo");
  assert.equal(unnamed.heading, "Allow web.fetch?", "the capability when the model named no tool");
});

Deno.test("APPROVAL_OPTIONS: one id, label and key per answer", () => {
  assert.deepEqual(APPROVAL_OPTIONS.map((o) => [o.answer, o.id, o.key]), [
    ["once", "accept", "y"],
    ["session", "acceptForSession", "a"],
    ["deny", "decline", "n"],
  ]);
});
