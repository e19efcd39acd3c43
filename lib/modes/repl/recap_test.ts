import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../../harness/load.ts";
import { emptyUsage, type Message } from "../../model/message.ts";
import { replayedHistory } from "../../session/replay_history.ts";
import { makeStyle } from "../term/style.ts";
import { recapLines } from "./recap.ts";
import { testTranscript } from "./_test_transcript.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../../../harnesses", import.meta.url)) };
const plain = makeStyle(false);
const call = (id: string, cmd: string) => ({
  type: "tool_call" as const,
  id,
  name: "exec_command",
  args: { cmd },
});
const result = (callId: string, text: string, isError: boolean): Message => ({
  role: "tool_result",
  callId,
  name: "exec_command",
  blocks: [{ type: "text", text }],
  isError,
});

Deno.test("a resumed session's recap shows each call on one line, in order, as the live view named it", async () => {
  const harness = await loadHarness("native", dirs);
  const history: Message[] = [
    { role: "user", blocks: [{ type: "text", text: "tidy up" }] },
    {
      role: "assistant",
      stop: "tool_calls",
      usage: emptyUsage(),
      blocks: [
        { type: "text", text: "Looking." },
        call("c1", "ls"),
        call("c2", "false"),
        call("c3", "sleep 30"),
      ],
    },
    result("c1", "a.py", false),
    result("c2", "exit 1", true),
    result("c3", harness.interruptedText, true),
    { role: "user", blocks: [{ type: "text", text: "use tabs" }] },
    {
      role: "assistant",
      stop: "end_turn",
      usage: emptyUsage(),
      blocks: [{ type: "text", text: "Done." }],
    },
  ];
  const lines = recapLines(replayedHistory(history, harness), plain);
  assert.deepEqual(lines, [
    "── the conversation so far ──",
    "› tidy up",
    "Looking.",
    "  $ ls",
    "  $ false ✗ failed",
    "  $ sleep 30 ✗ interrupted",
    "↳ steered: use tabs",
    "Done.",
    "──",
  ]);
  // The live view starts the same call with the same words.
  const { t, out } = testTranscript({ style: plain });
  t.handle({
    type: "tool_start",
    call: call("c1", "ls"),
    capability: "shell.run",
    input: { command: "ls" },
  });
  assert.equal(out(), "$ ls\n");
});
