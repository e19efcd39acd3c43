import assert from "node:assert/strict";
import type { SessionEvent } from "../../session/open.ts";
import { CodexEvents, tokenCount } from "./codex_events.ts";

const info = {
  cwd: "/r",
  model: "m",
  provider: "p",
  wireApi: "chat",
  harness: "native",
  sandbox: "sandbox: workspace-write",
};
const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 4, reasoningTokens: 1 };

Deno.test("CodexEvents.map() turns a turn's events into Codex's codex/event messages", () => {
  const ls = { id: "c1", name: "exec_command", args: {} };
  const patch = { id: "c2", name: "apply_patch", args: {} };
  const events: SessionEvent[] = [
    { type: "session_started", info },
    { type: "warning", message: "careful" },
    { type: "text_delta", text: "Loo" },
    {
      type: "assistant_message",
      message: {
        role: "assistant",
        blocks: [
          { type: "thinking", text: " plan " },
          { type: "text", text: "Looking." },
          { type: "tool_call", id: "c1", name: "exec_command", args: {} },
        ],
        stop: "tool_calls",
        usage,
      },
    },
    { type: "tool_start", call: ls, capability: "shell.run", input: { command: "ls" } },
    {
      type: "approval_requested",
      callId: "c1",
      question: { capability: "shell.run", subject: "ls", reason: "untrusted", unsandboxed: false },
    },
    { type: "tool_progress", callId: "c1", stream: "stdout", text: "a\n" },
    {
      type: "tool_end",
      call: ls,
      capability: "shell.run",
      output: { command: "ls", exitCode: 0, durationMs: 1500, output: "a\n" },
      text: "a\n",
      isError: false,
    },
    { type: "tool_start", call: patch, capability: "fs.apply_patch", input: { patch: "" } },
    {
      type: "tool_end",
      call: patch,
      capability: "fs.apply_patch",
      output: { changes: [{ path: "x.txt", kind: "update", diff: "@@" }] },
      text: "Done",
      isError: false,
    },
    { type: "turn_end", outcome: { status: "completed", finalText: "ok" }, usage },
  ];
  const codex = new CodexEvents();
  const command = { call_id: "c1", command: ["bash", "-c", "ls"], cwd: "/r" };
  const parsed = { parsed_cmd: [{ type: "unknown", cmd: "ls" }] };
  assert.deepEqual(events.flatMap((e) => codex.map(e)), [
    { type: "warning", message: "careful" },
    { type: "agent_message_delta", delta: "Loo" },
    { type: "agent_reasoning", text: "plan" },
    { type: "agent_message", message: "Looking." },
    { type: "exec_command_begin", ...command, ...parsed },
    { type: "exec_approval_request", ...command, ...parsed, reason: "untrusted" },
    { type: "exec_command_output_delta", call_id: "c1", stream: "stdout", chunk: "YQo=" },
    {
      type: "exec_command_end",
      ...command,
      ...parsed,
      stdout: "a\n",
      stderr: "",
      aggregated_output: "a\n",
      exit_code: 0,
      duration: { secs: 1, nanos: 500_000_000 },
      formatted_output: "a\n",
    },
    { type: "patch_apply_begin", call_id: "c2", auto_approved: true, changes: {} },
    { type: "patch_apply_end", call_id: "c2", stdout: "Done", stderr: "", success: true },
  ]);
  assert.deepEqual(codex.turnUsage, usage);
  assert.equal(codex.pending("c1"), undefined, "an ended call is no longer pending");
});

Deno.test("tokenCount() reports the total and the last turn's tokens as Codex does", () => {
  const last = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
  assert.deepEqual(tokenCount(usage, last, 1000), {
    type: "token_count",
    info: {
      total_token_usage: {
        input_tokens: 10,
        cached_input_tokens: 4,
        output_tokens: 2,
        reasoning_output_tokens: 1,
        total_tokens: 12,
      },
      last_token_usage: {
        input_tokens: 1,
        cached_input_tokens: 0,
        output_tokens: 1,
        reasoning_output_tokens: 0,
        total_tokens: 2,
      },
      model_context_window: 1000,
    },
    rate_limits: null,
  });
});
