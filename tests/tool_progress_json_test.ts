/** `exec --json` stays byte-identical with tool progress: the JSONL stream ignores it. */
import assert from "node:assert/strict";
import { ExecJsonStream } from "../lib/modes/exec/exec_json.ts";
import type { SessionEvent } from "../lib/session/types.ts";

const call = { id: "c1", name: "exec_command", args: { cmd: "make" } };
const EVENTS: SessionEvent[] = [
  { type: "tool_start", call, capability: "shell.run", input: { command: "make" } },
  { type: "tool_progress", callId: "c1", stream: "stdout", text: "building\n" },
  { type: "tool_progress", callId: "c1", stream: "stderr", text: "warning\n" },
  {
    type: "subagent",
    parentCallId: "c1",
    label: "helper",
    event: { type: "tool_progress", callId: "s1", stream: "status", text: "Bash ls\n" },
  },
  {
    type: "tool_end",
    call,
    capability: "shell.run",
    output: { command: "make", exitCode: 0, output: "building\nwarning\n", durationMs: 9 },
    text: "building\nwarning\n",
    isError: false,
  },
];

function jsonl(events: SessionEvent[]): string {
  const lines: string[] = [];
  const stream = new ExecJsonStream((event) => lines.push(JSON.stringify(event)));
  stream.threadStarted("t1");
  stream.turnStarted();
  for (const event of events) stream.onEvent(event);
  return lines.join("\n");
}

Deno.test("ExecJsonStream writes the same lines with or without tool_progress events", () => {
  const without = jsonl(EVENTS.filter((e) => e.type !== "tool_progress" && e.type !== "subagent"));
  assert.match(without, /command_execution/);
  assert.equal(jsonl(EVENTS), without);
});
