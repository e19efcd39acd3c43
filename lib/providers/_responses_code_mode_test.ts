import assert from "node:assert/strict";
import { emptyUsage, type Message, type ModelRequest } from "../model/message.ts";
import { finishResponses, fromWire, initResponsesState, toWire } from "./openai_responses.ts";

type Json = Record<string, unknown>;

const EXEC = {
  name: "exec",
  namespace: "functions",
  description: "Run JavaScript.",
  parameters: { type: "object", properties: { input: { type: "string" } } },
  format: { type: "grammar" as const, syntax: "lark" as const, definition: "start: /.+/" },
};
const SLEEP = {
  name: "sleep",
  namespace: "clock",
  description: "Pause.",
  parameters: { type: "object", properties: { duration_ms: { type: "number" } } },
};

const history: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "go" }] },
  {
    role: "assistant",
    blocks: [
      { type: "tool_call", id: "c1", name: "exec", args: { input: "text(1)" }, freeform: true },
      { type: "tool_call", id: "c2", name: "sleep", args: { duration_ms: 5 }, namespace: "clock" },
    ],
    stop: "tool_calls",
    usage: emptyUsage(),
  },
  {
    role: "tool_result",
    callId: "c1",
    name: "exec",
    blocks: [{ type: "text", text: "Script completed\n" }, { type: "text", text: "1" }],
    isError: false,
  },
  {
    role: "tool_result",
    callId: "c2",
    name: "sleep",
    blocks: [{ type: "text", text: "Sleep completed." }],
    isError: false,
  },
];

const request: ModelRequest = {
  model: "gpt-6.2-sol",
  system: [],
  messages: history,
  tools: [EXEC, SLEEP],
  settings: {
    responses: {
      base: {
        toolsItem: "additional_tools",
        toolNamespaces: [{ name: "functions", description: "" }, {
          name: "clock",
          description: "Time.",
        }],
        effort: "low",
        reasoningContext: "all_turns",
        reasoningSummary: "none",
        verbosity: "low",
        parallelToolCalls: false,
      },
      rules: [],
    },
  },
};

Deno.test("toWire() in code mode: tools in an additional_tools item, custom calls and parts", () => {
  const body = toWire(request, { compat: {} });
  assert.equal(body.tools, undefined);
  const input = body.input as Json[];
  assert.deepEqual(input[0], {
    type: "additional_tools",
    role: "developer",
    tools: [
      {
        type: "namespace",
        name: "functions",
        description: "",
        tools: [{
          type: "custom",
          name: "exec",
          description: "Run JavaScript.",
          format: EXEC.format,
        }],
      },
      {
        type: "namespace",
        name: "clock",
        description: "Time.",
        tools: [{
          type: "function",
          name: "sleep",
          description: "Pause.",
          parameters: SLEEP.parameters,
          strict: false,
        }],
      },
    ],
  });
  assert.deepEqual(input.slice(2), [
    { type: "custom_tool_call", call_id: "c1", name: "exec", input: "text(1)" },
    {
      type: "function_call",
      call_id: "c2",
      name: "sleep",
      arguments: '{"duration_ms":5}',
      namespace: "clock",
    },
    {
      type: "custom_tool_call_output",
      call_id: "c1",
      output: [
        { type: "input_text", text: "Script completed\n" },
        { type: "input_text", text: "1" },
      ],
    },
    { type: "function_call_output", call_id: "c2", output: "Sleep completed." },
  ]);
  assert.deepEqual(body.reasoning, { effort: "low", context: "all_turns" });
  assert.deepEqual(body.text, { verbosity: "low" });
  assert.equal(body.parallel_tool_calls, false);
});

Deno.test("fromWire() reads a streamed custom_tool_call and a namespaced function call", () => {
  const state = initResponsesState();
  const events = [
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { id: "ct_1", type: "custom_tool_call", call_id: "c1", name: "exec", input: "" },
    },
    { type: "response.custom_tool_call_input.delta", item_id: "ct_1", delta: "text(" },
    { type: "response.custom_tool_call_input.delta", item_id: "ct_1", delta: "1)" },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { id: "ct_1", type: "custom_tool_call", call_id: "c1", name: "exec", input: "text(1)" },
    },
    {
      type: "response.output_item.done",
      output_index: 1,
      item: {
        id: "fc_2",
        type: "function_call",
        call_id: "c2",
        name: "sleep",
        namespace: "clock",
        arguments: '{"duration_ms":5}',
      },
    },
    { type: "response.completed", response: { status: "completed", usage: {} } },
  ];
  for (const e of events) fromWire(e, state);
  const done = finishResponses(state, "complete");
  assert.equal(done.type, "done");
  assert.deepEqual(done.type === "done" ? done.blocks : [], [
    { type: "tool_call", id: "c1", name: "exec", args: { input: "text(1)" }, freeform: true },
    { type: "tool_call", id: "c2", name: "sleep", args: { duration_ms: 5 }, namespace: "clock" },
  ]);
});
