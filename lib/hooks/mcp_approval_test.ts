import assert from "node:assert/strict";
import { approvalHook } from "../approval/hook.ts";
import type { McpServerEntry } from "../config/schema.ts";
import type { ApprovalCheck } from "./approval.ts";
import { mcpToolMode, withMcpApprovalModes } from "./mcp_approval.ts";

const SERVERS: Record<string, McpServerEntry> = {
  fs: {
    command: "fs",
    default_tools_approval_mode: "prompt",
    tools: { read_file: { approval_mode: "approve" } },
  },
  "fs/extra": { command: "x" },
};
const signal = new AbortController().signal;

Deno.test("mcpToolMode() takes the tool's mode, else the server's default, else auto", () => {
  assert.deepEqual(mcpToolMode(SERVERS, "source:fs/read_file"), {
    server: "fs",
    tool: "read_file",
    mode: "approve",
    setBy: "approval_mode in [mcp_servers.fs.tools.read_file]",
  });
  assert.equal(mcpToolMode(SERVERS, "source:fs/write_file")?.mode, "prompt");
  assert.deepEqual(mcpToolMode(SERVERS, "source:fs/extra/t"), {
    server: "fs/extra",
    tool: "t",
    mode: "auto",
  });
  assert.equal(mcpToolMode(SERVERS, "source:probe/echo"), undefined);
  assert.equal(mcpToolMode(SERVERS, "shell.run"), undefined);
});

Deno.test("withMcpApprovalModes() never asks in approve mode, always in prompt, and leaves auto alone", async () => {
  const seen: Array<Parameters<ApprovalCheck>[1]> = [];
  const check: ApprovalCheck = (_call, resolved) => {
    seen.push(resolved);
    return Promise.resolve({ allow: false, reason: "asked" });
  };
  const modes = withMcpApprovalModes(check, SERVERS);
  const call = { id: "c1", name: "mcp__fs__x" };
  const resolved = (capability: string) => ({ capability, input: {}, mutates: true });
  assert.deepEqual(await modes(call, resolved("source:fs/read_file"), signal), { allow: true });
  assert.deepEqual(seen, [], "approve: the check is not asked");
  await modes(call, resolved("source:fs/write_file"), signal);
  await modes(call, resolved("source:fs/extra/t"), signal);
  await modes(call, resolved("shell.run"), signal);
  assert.deepEqual(seen, [
    {
      ...resolved("source:fs/write_file"),
      askReason: 'default_tools_approval_mode in [mcp_servers.fs] is "prompt": every call of ' +
        "write_file is asked about",
    },
    resolved("source:fs/extra/t"),
    resolved("shell.run"),
  ]);
});

Deno.test("a prompt-mode MCP call is asked about under any policy, and refused when no one can answer", async () => {
  const base = {
    sandbox: { mode: "workspace-write" as const, enforced: true },
    mutates: () => false,
  };
  const asked: string[] = [];
  const withUser = withMcpApprovalModes(
    approvalHook({
      ...base,
      policy: "never",
      ask: (req) => {
        asked.push(req.question.reason);
        return Promise.resolve("once");
      },
    }),
    SERVERS,
  );
  const call = { id: "c1", name: "mcp__fs__write_file" };
  const resolved = { capability: "source:fs/write_file", input: { path: "a" }, mutates: false };
  assert.deepEqual(await withUser(call, resolved, signal), { allow: true, unsandboxed: false });
  assert.equal(asked.length, 1);
  const nobody = withMcpApprovalModes(approvalHook({ ...base, policy: "on-request" }), SERVERS);
  const verdict = await nobody(call, resolved, signal);
  assert.equal(verdict.allow, false);
  assert.match(
    !verdict.allow ? verdict.reason : "",
    /^No one is available to approve mcp__fs__write_file \(default_tools_approval_mode in \[mcp_servers\.fs\] is "prompt": every call of write_file is asked about\), so it was not run\n/,
  );
});
