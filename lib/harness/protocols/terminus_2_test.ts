import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../load.ts";
import type { ProtocolResult } from "../types.ts";
import { readReply } from "./terminus_2.ts";

const BUILTIN = fileURLToPath(new URL("../../../harnesses/", import.meta.url));
const protocol = (await loadHarness("terminus-2", { builtinDir: BUILTIN })).protocol!;

const reply = (o: Record<string, unknown>) =>
  JSON.stringify({ analysis: "a", plan: "p", commands: [], ...o });

function term(newOutput: string | null, screen = "screen"): ProtocolResult {
  return { name: "send_keys", args: {}, text: "", isError: false, output: { newOutput, screen } };
}

Deno.test("readReply() finds the JSON object in prose or a fence and names each problem", () => {
  const fenced = '```json\n{"analysis":"a","plan":"p","commands":[{"keystrokes":"ls\\n"}]}\n```';
  assert.deepEqual(readReply(fenced), {
    reply: { analysis: "a", commands: [{ keystrokes: "ls\n", duration: 1 }], taskComplete: false },
    warnings: [],
  });
  const prose = readReply('Sure! {"analysis":"}{","plan":"","commands":[]} Done.');
  assert.deepEqual(prose.warnings, [
    "Extra text detected before JSON object",
    "Extra text detected after JSON object",
  ]);
  assert.ok("reply" in prose && prose.reply.analysis === "}{");
  assert.deepEqual(readReply("no json here"), {
    error: "No valid JSON found in response",
    warnings: [],
  });
  assert.match((readReply('{"analysis": "a",}') as { error: string }).error, /^Invalid JSON: /);
  assert.equal(
    (readReply('{"analysis": "a"}') as { error: string }).error,
    "Missing required fields: plan, commands",
  );
  assert.equal(
    (readReply('{"analysis":"","plan":"","commands":"ls"}') as { error: string }).error,
    "Field 'commands' must be an array",
  );
  for (const yes of [true, "true", "YES", "1"]) {
    const r = readReply(reply({ task_complete: yes }));
    assert.ok("reply" in r && r.reply.taskComplete, String(yes));
  }
});

Deno.test("parse() turns commands into send_keys calls and errors into a format message", () => {
  const parsed = protocol.parse(
    reply({ commands: [{ keystrokes: "ls\n", duration: 0.1 }, { keystrokes: "C-c" }] }),
    new Map(),
  );
  assert.deepEqual(parsed, {
    kind: "calls",
    calls: [
      { name: "send_keys", args: { keystrokes: "ls\n", duration: 0.1 } },
      { name: "send_keys", args: { keystrokes: "C-c", duration: 1 } },
    ],
  });
  const bad = protocol.parse('Here: {"analysis": 1', new Map());
  assert.equal(bad.kind, "format_error");
  assert.match(
    (bad as { message: string }).message,
    /^Previous response had parsing errors:\nERROR: No valid JSON found in response\n\nReply again/,
  );
});

Deno.test("observation() joins new output, falls back to the screen, and confirms completion", () => {
  const state = new Map<string, unknown>();
  assert.equal(
    protocol.observation([term("$ a\n1\n$"), term("$ b\n2\n$")], state),
    "New Terminal Output:\n$ a\n1\n$ b\n2\n$",
  );
  assert.equal(
    protocol.observation([term("$ a\n1\n$"), term(null, "whole screen")], state),
    "Current Terminal Screen:\nwhole screen",
  );
  protocol.parse(reply({ task_complete: true }), state);
  const ask = protocol.observation([term("", "$")], state);
  assert.match(ask as string, /^Current terminal state:\n\$\n\nDo you really want/);
  assert.deepEqual(protocol.parse(reply({ analysis: "done", task_complete: true }), state), {
    kind: "finish",
    finalText: "done",
  });
  protocol.parse(reply({ task_complete: true }), state);
  protocol.observation([term("", "$")], state);
  protocol.parse(reply({ task_complete: false }), state);
  assert.equal(protocol.parse(reply({ task_complete: true }), state).kind, "calls");
});
