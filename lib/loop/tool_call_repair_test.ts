import assert from "node:assert/strict";
import type { Block, ToolDeclaration } from "../model/message.ts";
import { randomCallId, repairToolCalls } from "./tool_call_repair.ts";

const TOOLS: ToolDeclaration[] = [
  {
    name: "exec_command",
    description: "run",
    parameters: {
      type: "object",
      properties: {
        cmd: { type: "string" },
        yield_time_ms: { type: "integer" },
        login: { type: "boolean" },
        prefix_rule: { type: "array" },
      },
    },
  },
  { name: "update_plan", description: "plan", parameters: { type: "object", properties: {} } },
];

let ids = 0;
const nextId = () => `id${++ids}`;

async function repair(text: string) {
  return await repairToolCalls([{ type: "text", text }], TOOLS, nextId);
}

/** The recovered calls (name and args) and the visible text. */
async function recovered(text: string) {
  const result = await repair(text);
  assert.ok(result, `nothing recovered from ${JSON.stringify(text)}`);
  const calls = result.blocks.filter((b) => b.type === "tool_call") as Array<
    Extract<Block, { type: "tool_call" }>
  >;
  const visible = result.blocks.filter((b) => b.type === "text").map((b) => b.text).join("");
  return {
    calls: calls.map((
      c,
    ) => (c.rawArgs === undefined
      ? { name: c.name, args: c.args }
      : { name: c.name, args: c.args, rawArgs: c.rawArgs })
    ),
    visible,
    formats: result.formats,
    blocks: result.blocks,
  };
}

Deno.test("repairToolCalls() reads Hermes/Qwen <tool_call> JSON and strips it from the text", async () => {
  const r = await recovered(
    'Let me look.\n<tool_call>\n{"name": "exec_command", "arguments": {"cmd": "ls -la"}}\n' +
      '</tool_call>\n<tool_call>{"name": "update_plan", "arguments": "{\\"plan\\": []}"}</tool_call>',
  );
  assert.deepEqual(r.calls, [
    { name: "exec_command", args: { cmd: "ls -la" } },
    { name: "update_plan", args: { plan: [] } },
  ]);
  assert.equal(r.visible, "Let me look.");
  assert.deepEqual(r.formats, ["hermes", "hermes"]);
  assert.deepEqual(r.blocks.map((b) => b.type), ["text", "tool_call", "tool_call"]);
});

Deno.test("repairToolCalls() reads a <tool_call> whose closing tag never came", async () => {
  const r = await recovered('<tool_call>\n{"name": "exec_command", "arguments": {"cmd": "pwd"}}');
  assert.deepEqual(r.calls, [{ name: "exec_command", args: { cmd: "pwd" } }]);
  assert.equal(r.visible, "");
  assert.deepEqual(r.blocks.map((b) => b.type), ["tool_call"], "no empty text block");
});

Deno.test("repairToolCalls() reads Qwen3-Coder XML, typing values by the tool's schema", async () => {
  const r = await recovered(
    "I will run it.\n<tool_call>\n<function=exec_command>\n<parameter=cmd>\necho 'a <b>'\n" +
      "</parameter>\n<parameter=yield_time_ms>\n500\n</parameter>\n<parameter=login>\nfalse\n" +
      '<parameter=prefix_rule>\n["echo"]\n</parameter>\n</function>\n</tool_call>',
  );
  assert.deepEqual(r.calls, [{
    name: "exec_command",
    args: { cmd: "echo 'a <b>'", yield_time_ms: 500, login: false, prefix_rule: ["echo"] },
  }]);
  assert.equal(r.visible, "I will run it.");
  assert.deepEqual(r.formats, ["qwen_xml"]);
});

Deno.test("repairToolCalls() reads a lone call object in a fenced block", async () => {
  const r = await recovered(
    'Running:\n```json\n{"name": "exec_command", "arguments": {"cmd": "make test"}}\n```\nDone.',
  );
  assert.deepEqual(r.calls, [{ name: "exec_command", args: { cmd: "make test" } }]);
  assert.equal(r.visible, "Running:\n\nDone.");
  assert.deepEqual(r.formats, ["fenced_json"]);
});

Deno.test("repairToolCalls() reads Mistral [TOOL_CALLS] in its JSON and its [ARGS] forms", async () => {
  const list = await recovered(
    '[TOOL_CALLS] [{"name": "exec_command", "arguments": {"cmd": "ls"}}, ' +
      '{"name": "update_plan", "arguments": {}}]',
  );
  assert.deepEqual(list.calls, [
    { name: "exec_command", args: { cmd: "ls" } },
    { name: "update_plan", args: {} },
  ]);
  const args = await repair(
    '[TOOL_CALLS]exec_command[CALL_ID]a1b2c3d4e[ARGS]{"cmd": "git status"}' +
      '[TOOL_CALLS]update_plan[ARGS]{"plan": []}',
  );
  assert.deepEqual(args?.blocks, [
    { type: "tool_call", id: "a1b2c3d4e", name: "exec_command", args: { cmd: "git status" } },
    {
      type: "tool_call",
      id: args?.blocks[1].type === "tool_call" ? args.blocks[1].id : "",
      name: "update_plan",
      args: { plan: [] },
    },
  ]);
  assert.deepEqual(args?.formats, ["mistral", "mistral"]);
});

Deno.test("repairToolCalls() repairs arguments only when the repair is unambiguous", async () => {
  const fixed = await recovered(
    "<tool_call>{'name': 'exec_command', 'arguments': {'cmd': 'ls', 'login': True,}}</tool_call>",
  );
  assert.deepEqual(fixed.calls, [{ name: "exec_command", args: { cmd: "ls", login: true } }]);
  const cut = await recovered(
    '<tool_call>{"name": "exec_command", "arguments": {"cmd": "echo hel',
  );
  assert.deepEqual(cut.calls, [
    { name: "exec_command", args: undefined, rawArgs: '{"cmd": "echo hel' },
  ], "cut off inside a string: kept raw, so the model hears the arguments are not JSON");
  const missing = await recovered(
    '[TOOL_CALLS]exec_command[ARGS]{"cmd": "ls", "yield_time_ms": }',
  );
  assert.equal(missing.calls[0].args, undefined, "a key without a value is not guessed");
  assert.equal(missing.calls[0].rawArgs, '{"cmd": "ls", "yield_time_ms": }');
});

Deno.test("repairToolCalls() leaves prose, quoted markup and unadvertised names as text", async () => {
  const nearMisses = [
    "Models sometimes write <tool_call> tags instead of calling tools.",
    'Wrap the call in `<tool_call>{"name": "exec_command", "arguments": {}}</tool_call>`.',
    'The format is:\n```\n<tool_call>\n{"name": "exec_command", "arguments": {"cmd": "ls"}}\n' +
    "</tool_call>\n```",
    '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>',
    '```json\n{"name": "exec_command", "arguments": {"cmd": "ls"}, "note": "x"}\n```',
    '```json\n{"name": "exec_command"}\n```',
    '```python\n{"name": "exec_command", "arguments": {"cmd": "ls"}}\n```',
    'Here is some config:\n```json\n{"name": "my-package", "version": "1.0.0"}\n```',
    "Mistral models emit [TOOL_CALLS] before their calls.",
    "[TOOL_CALLS]rm_rf[ARGS]{}",
    "<tool_call>\n<function=rm_rf>\n<parameter=path>\n/\n</parameter>\n</function>\n</tool_call>",
  ];
  for (const text of nearMisses) {
    assert.equal(await repair(text), undefined, text);
  }
});

Deno.test("repairToolCalls() reads several dialects in one reply, in order", async () => {
  const r = await recovered(
    "First:\n<tool_call>exec_command\n<arg_key>cmd</arg_key>\n<arg_value>ls</arg_value>\n" +
      '</tool_call>\nthen <|tool_call_begin|>functions.update_plan:1<|tool_call_argument_begin|>{"plan": []}' +
      "<|tool_call_end|>",
  );
  assert.deepEqual(r.calls, [
    { name: "exec_command", args: { cmd: "ls" } },
    { name: "update_plan", args: { plan: [] } },
  ]);
  assert.deepEqual(r.formats, ["glm", "kimi"]);
  assert.equal(r.visible, "First:\n\nthen");
});

Deno.test("repairToolCalls() turns harmony analysis into thinking and keeps the reply's own blocks", async () => {
  const result = await repairToolCalls(
    [
      { type: "thinking", text: "from the server", signature: "s" },
      {
        type: "text",
        text: "<|channel|>analysis<|message|>Need a listing.<|end|><|start|>assistant<|channel|>" +
          'commentary to=functions.exec_command <|constrain|>json<|message|>{"cmd":"ls"}<|call|>',
      },
    ],
    TOOLS,
    nextId,
  );
  assert.deepEqual(result?.blocks.map((b) => b.type), ["thinking", "thinking", "tool_call"]);
  assert.deepEqual(result?.blocks[1], { type: "thinking", text: "Need a listing." });
  const unadvertised = await repair(
    "<|channel|>analysis<|message|>Search.<|end|><|start|>assistant<|channel|>commentary " +
      'to=functions.web_search <|constrain|>json<|message|>{"q":"x"}<|call|>',
  );
  assert.equal(unadvertised, undefined, "without a call, the analysis is left as it was");
});

Deno.test("repairToolCalls() leaves replies with structured calls, and harnesses without tools, alone", async () => {
  const text: Block = {
    type: "text",
    text: '<tool_call>{"name": "exec_command", "arguments": {}}</tool_call>',
  };
  const call: Block = { type: "tool_call", id: "c1", name: "update_plan", args: {} };
  assert.equal(await repairToolCalls([text, call], TOOLS), undefined);
  assert.equal(await repairToolCalls([text], []), undefined);
});

Deno.test("randomCallId() gives nine letters and digits", () => {
  const seen = new Set(Array.from({ length: 50 }, randomCallId));
  assert.equal(seen.size, 50);
  for (const id of seen) assert.match(id, /^[A-Za-z0-9]{9}$/);
});
