import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../../harness/load.ts";
import { emptyUsage, type Message } from "../../model/message.ts";
import { replayedHistory } from "../../session/replay_history.ts";
import { replayUpdates } from "./replay.ts";
import { SessionUpdates } from "./updates.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../../../harnesses", import.meta.url)) };
const usage = emptyUsage();
const PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n";

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "<env>", context: true }] },
  { role: "user", blocks: [{ type: "text", text: "fix a.py" }] },
  {
    role: "assistant",
    stop: "tool_calls",
    usage,
    blocks: [
      { type: "thinking", text: "Look first." },
      { type: "text", text: "Looking." },
      { type: "tool_call", id: "c1", name: "exec_command", args: { cmd: "cat a.py" } },
      { type: "tool_call", id: "c2", name: "apply_patch", args: { input: PATCH } },
      { type: "tool_call", id: "c3", name: "mcp__docs__search", args: { q: "x" } },
    ],
  },
  ...["c1", "c2", "c3"].map((callId, i): Message => ({
    role: "tool_result",
    callId,
    name: "",
    blocks: [{ type: "text", text: ["x = 1", "Done", "no such page"][i] }],
    isError: i === 2,
  })),
  { role: "assistant", stop: "end_turn", usage, blocks: [{ type: "text", text: "Fixed." }] },
];

Deno.test("replayUpdates() replays messages and tool calls as the harness in use reads them", async () => {
  const harness = await loadHarness("native", dirs);
  const updates = new SessionUpdates({ showReasoning: true });
  updates.map({
    type: "session_started",
    info: { cwd: "/repo", model: "", provider: "", wireApi: "", harness: "", sandbox: "" },
  });
  const out = replayUpdates(replayedHistory(history, harness), updates, { showReasoning: true });
  const summary = out.map((u) =>
    u.sessionUpdate === "tool_call"
      ? `tool_call ${u.kind} ${u.title}`
      : u.sessionUpdate === "tool_call_update"
      ? `update ${u.toolCallId} ${u.status}`
      : `${u.sessionUpdate} ${"content" in u && u.content.type === "text" ? u.content.text : ""}`
  );
  assert.deepEqual(summary, [
    "user_message_chunk fix a.py",
    "agent_thought_chunk Look first.",
    "agent_message_chunk Looking.",
    "tool_call execute cat a.py",
    "tool_call edit Edit a.py",
    "tool_call other docs/search",
    "update c1 completed",
    "update c2 completed",
    "update c3 failed",
    "agent_message_chunk Fixed.",
  ]);
  const end = (id: string) =>
    out.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id) as
      | { content?: unknown }
      | undefined;
  assert.deepEqual(end("c2")?.content, [
    { type: "diff", path: "/repo/a.py", oldText: "x = 1", newText: "x = 2" },
  ]);
  assert.match(JSON.stringify(end("c1")), /x = 1/);
  assert.match(JSON.stringify(end("c3")), /no such page/);
});
