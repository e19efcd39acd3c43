import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../harness/load.ts";
import { emptyUsage, type Message } from "../model/message.ts";
import { replayedHistory } from "./replay_history.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../../harnesses", import.meta.url)) };

function callsOf(...calls: Array<{ id: string; name: string; args: unknown }>): Message[] {
  return [{
    role: "assistant",
    stop: "tool_calls",
    usage: emptyUsage(),
    blocks: calls.map((c) => ({ type: "tool_call" as const, ...c })),
  }];
}

Deno.test("replayedHistory() reads each call by capability id, whatever the harness names it", async () => {
  const messages = callsOf(
    { id: "c1", name: "exec_command", args: { cmd: "ls" } },
    { id: "c2", name: "mcp__docs__search", args: { q: "x" } },
    { id: "c3", name: "no_such_tool", args: {} },
  );
  const { calls } = replayedHistory(messages, await loadHarness("native", dirs));
  assert.equal(calls.get("c1")?.capability, "shell.run");
  assert.equal(calls.get("c2")?.capability, "source:docs/search");
  assert.deepEqual(calls.get("c3"), {}, "a call no harness tool takes reads as nothing");
  const claude = replayedHistory(
    callsOf({ id: "c1", name: "Bash", args: { command: "ls" } }),
    await loadHarness("claude-code", dirs),
  );
  assert.equal(
    claude.calls.get("c1")?.capability,
    "shell.run",
    "the same capability by another name",
  );
});

Deno.test("replayedHistory() marks a call the user interrupted, not one that failed", async () => {
  const harness = await loadHarness("native", dirs);
  const result = (callId: string, text: string): Message => ({
    role: "tool_result",
    callId,
    name: "exec_command",
    blocks: [{ type: "text", text }],
    isError: true,
  });
  const { calls } = replayedHistory([
    ...callsOf(
      { id: "c1", name: "exec_command", args: { cmd: "sleep 9" } },
      { id: "c2", name: "exec_command", args: { cmd: "false" } },
    ),
    result("c1", harness.interruptedText),
    result("c2", "exit 1"),
  ], harness);
  assert.equal(calls.get("c1")?.interrupted, true);
  assert.equal(calls.get("c2")?.interrupted, undefined);
});
