import assert from "node:assert/strict";
import type { ToolView } from "../../session/tool_views/tool_view.ts";
import { decisionOf, elicitationParams } from "./approvals.ts";

Deno.test("decisionOf() reads Codex's {decision} and the MCP {action, content} forms", () => {
  assert.equal(decisionOf({ decision: "approved" }), "approved");
  assert.equal(decisionOf({ decision: "approved_for_session" }), "approved_for_session");
  assert.equal(decisionOf({ action: "accept", content: { decision: "abort" } }), "abort");
  assert.equal(decisionOf({ action: "accept", decision: "timed_out" }), "timed_out");
  assert.equal(decisionOf({ action: "accept" }), "approved");
  const amendment = { approved_execpolicy_amendment: { proposed_execpolicy_amendment: [] } };
  assert.equal(decisionOf({ decision: amendment }), "approved");
});

Deno.test("decisionOf() denies a declined, cancelled, empty or unreadable answer", () => {
  for (
    const answer of [
      { action: "decline", content: { decision: "approved" } },
      { action: "cancel" },
      {},
      { decision: "yes please" },
      { decision: { network_policy_amendment: {} } },
      null,
      "approved",
    ]
  ) assert.equal(decisionOf(answer), "denied", JSON.stringify(answer));
});

const ids = { threadId: "t-1", toolCallId: "7", eventId: "7", cwd: "/work/repo" };

Deno.test("elicitationParams() asks about a command as an exec-approval with its argv", () => {
  const view: ToolView = {
    kind: "command",
    callId: "call_1",
    name: "exec_command",
    capability: "shell.run",
    status: "running",
    command: "touch a.txt",
    cwd: "sub",
  };
  const request = {
    callId: "call_1",
    tool: "exec_command",
    question: {
      capability: "shell.run",
      subject: "touch a.txt",
      reason: "approval_policy is untrusted",
      unsandboxed: false,
    },
  };
  assert.deepEqual(elicitationParams({ ...ids, request, view, input: { login: true } }), {
    message: "Allow the agent to run `touch a.txt` in `/work/repo/sub`?\n" +
      "Reason: approval_policy is untrusted",
    requestedSchema: { type: "object", properties: {} },
    threadId: "t-1",
    codex_elicitation: "exec-approval",
    codex_mcp_tool_call_id: "7",
    codex_event_id: "7",
    codex_call_id: "call_1",
    codex_command: ["bash", "-lc", "touch a.txt"],
    codex_cwd: "/work/repo/sub",
    codex_parsed_cmd: [{ type: "unknown", cmd: "touch a.txt" }],
  });
});

Deno.test("elicitationParams() asks about file changes as a patch-approval with its changes", () => {
  const view: ToolView = {
    kind: "file_change",
    callId: "call_2",
    name: "Write",
    capability: "fs.write",
    status: "running",
    changes: [
      { path: "/work/repo/new.txt", displayPath: "new.txt", kind: "add", diff: "" },
      { path: "/work/repo/a.py", displayPath: "a.py", kind: "update", diff: "@@ -1 +1 @@" },
    ],
  };
  const request = {
    callId: "call_2",
    tool: "Write",
    question: {
      capability: "fs.write",
      subject: "{}",
      reason: "it writes outside the workspace",
      justification: "needed",
      unsandboxed: false,
    },
  };
  const params = elicitationParams({ ...ids, request, view, input: { content: "hi\n" } });
  assert.equal(params.codex_elicitation, "patch-approval");
  assert.equal(params.codex_reason, "it writes outside the workspace\nneeded");
  assert.equal(params.codex_grant_root, null);
  assert.deepEqual(params.codex_changes, {
    "/work/repo/new.txt": { type: "add", content: "hi\n" },
    "/work/repo/a.py": { type: "update", unified_diff: "@@ -1 +1 @@", move_path: null },
  });
  assert.match(String(params.message), /^Allow the agent to change new\.txt, a\.py\?/);
});
