import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { emptyUsage, type Message } from "../model/message.ts";
import { loadHarness } from "./load.ts";
import { translateHistory, withoutSealedReasoning } from "./translate.ts";

const dirs = { builtinDir: fileURLToPath(new URL("../../harnesses", import.meta.url)) };

const done = { stop: "tool_calls" as const, usage: emptyUsage() };

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "fix it" }] },
  {
    role: "assistant",
    ...done,
    blocks: [
      { type: "thinking", text: "hm", signature: "sig" },
      { type: "tool_call", id: "c1", name: "exec_command", args: { cmd: "ls" } },
      {
        type: "tool_call",
        id: "c2",
        name: "apply_patch",
        args: { input: "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n" },
      },
    ],
  },
  {
    role: "tool_result",
    callId: "c1",
    name: "exec_command",
    blocks: [{ type: "text", text: "a.txt" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "c2",
    name: "apply_patch",
    blocks: [{ type: "text", text: "Done" }],
    isError: false,
  },
];

Deno.test("translateHistory() renames calls the new harness can take and turns the rest into text", async () => {
  const native = await loadHarness("native", dirs);
  const claude = await loadHarness("claude-code", dirs);
  const out = translateHistory(history, native, claude);
  const assistant = out[1] as Extract<Message, { role: "assistant" }>;
  assert.deepEqual(assistant.blocks[1], {
    type: "tool_call",
    id: "c1",
    name: "Bash",
    args: { command: "ls" },
  });
  assert.equal(assistant.blocks[2].type, "text");
  assert.match((assistant.blocks[2] as { text: string }).text, /called apply_patch/);
  assert.deepEqual(out[2], { ...history[2], name: "Bash" });
  assert.equal(out[3].role, "user");
  assert.match(JSON.stringify(out[3]), /Result of apply_patch:\\nDone/);
  const names = new Set(claude.tools.map((t) => t.declaration.name));
  for (const m of out) {
    if (m.role === "tool_result") assert.ok(names.has(m.name), m.name);
  }
});

Deno.test("translateHistory() puts a result written as text after the results that stay calls", async () => {
  const native = await loadHarness("native", dirs);
  const claude = await loadHarness("claude-code", dirs);
  const [prompt, assistant, first, second] = history;
  const swapped = [
    prompt,
    { ...assistant, blocks: [...assistant.blocks].reverse() } as Message,
    second,
    first,
  ];
  const out = translateHistory(swapped, native, claude);
  assert.deepEqual(out.map((m) => m.role), ["user", "assistant", "tool_result", "user"]);
  assert.deepEqual(out[2], { ...first, name: "Bash" });
  assert.match(JSON.stringify(out[3]), /Result of apply_patch:\\nDone/);
});

Deno.test("translateHistory() to a text-protocol harness leaves no tool call at all", async () => {
  const native = await loadHarness("native", dirs);
  const swe = await loadHarness("swe-agent", dirs);
  const out = translateHistory(history, native, swe);
  assert.ok(out.every((m) => m.role !== "tool_result"));
  assert.ok(
    out.every((m) => m.role !== "assistant" || m.blocks.every((b) => b.type !== "tool_call")),
  );
  assert.deepEqual(out.map((m) => m.role), ["user", "assistant", "user"]);
});

Deno.test("withoutSealedReasoning() drops signed and encrypted reasoning only", () => {
  const out = withoutSealedReasoning([
    {
      role: "assistant",
      ...done,
      blocks: [{ type: "thinking", text: "a", signature: "s" }, { type: "thinking", text: "b" }],
    },
  ]);
  assert.deepEqual(out, [{
    role: "assistant",
    ...done,
    blocks: [{ type: "thinking", text: "b" }],
  }]);
});
