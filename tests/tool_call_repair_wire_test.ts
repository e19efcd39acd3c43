import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import type { LoopEvent } from "../lib/loop/events.ts";
import { freshState } from "../lib/loop/_test_loop.ts";
import { openProvider } from "../lib/providers/mod.ts";
import { testSettings } from "../lib/providers/_testing.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { viewRequest } from "./fake_provider/request_view.ts";
import { runTestTurn } from "./_run_turn.ts";

/**
 * Tool calls a model writes as text are run and replayed as structured calls: the fake provider
 * returns each text format on each wire, and the second request must carry a real tool call, its
 * result, and none of the markup.
 */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const WIRES: WireApi[] = ["chat", "responses", "messages"];

/** One call per format, each with its own marker in the command and the markup it must lose. */
interface Case {
  format: string;
  text: string;
  markup: string[];
  /** Whether "Checking." comes before the call (a reply that is only a call has no prose). */
  prose: boolean;
}

const CASES: Case[] = [
  {
    format: "hermes",
    text:
      'Checking.\n<tool_call>\n{"name": "exec_command", "arguments": {"cmd": "echo rep-hermes"}}' +
      "\n</tool_call>",
    markup: ["<tool_call>"],
    prose: true,
  },
  {
    format: "qwen_xml",
    text: "Checking.\n<tool_call>\n<function=exec_command>\n<parameter=cmd>\necho rep-qwen_xml\n" +
      "</parameter>\n</function>\n</tool_call>",
    markup: ["<tool_call>", "<function="],
    prose: true,
  },
  {
    format: "fenced_json",
    text:
      'Checking.\n```json\n{"name": "exec_command", "arguments": {"cmd": "echo rep-fenced_json"}}' +
      "\n```",
    markup: ["```json"],
    prose: true,
  },
  {
    format: "mistral",
    text:
      'Checking.[TOOL_CALLS][{"name": "exec_command", "arguments": {"cmd": "echo rep-mistral"}}]',
    markup: ["[TOOL_CALLS]"],
    prose: true,
  },
  {
    format: "harmony",
    text:
      "<|channel|>commentary<|message|>Checking.<|end|><|start|>assistant<|channel|>commentary " +
      'to=functions.exec_command <|constrain|>json<|message|>{"cmd":"echo rep-harmony"}<|call|>',
    markup: ["<|channel|>", "<|message|>", "to=functions"],
    prose: true,
  },
  {
    format: "deepseek",
    text: "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>exec_command<｜tool▁sep｜>" +
      '{"cmd": "echo rep-deepseek"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    markup: ["<｜"],
    prose: true,
  },
  {
    format: "glm",
    text: "Checking.\n<tool_call>exec_command\n<arg_key>cmd</arg_key>\n" +
      "<arg_value>echo rep-glm</arg_value>\n</tool_call>",
    markup: ["<tool_call>", "<arg_key>", "<arg_value>"],
    prose: true,
  },
  {
    format: "llama",
    text: '{"name": "exec_command", "parameters": {"cmd": "echo rep-llama"}}',
    markup: ['"parameters"', '"name"'],
    prose: false,
  },
  {
    format: "kimi",
    text: "Checking.<|tool_calls_section_begin|><|tool_call_begin|>functions.exec_command:0" +
      '<|tool_call_argument_begin|>{"cmd": "echo rep-kimi"}<|tool_call_end|><|tool_calls_section_end|>',
    markup: ["<|tool_call", "functions."],
    prose: true,
  },
];

/** Runs one native-harness turn whose first reply is `text`; returns what the test checks. */
async function turnWith(text: string, wire: WireApi, opts: { repair?: boolean } = {}) {
  await using server = startFakeProvider(
    [{ reply: { text } }, { reply: { text: "All done." } }],
    { allowForeignIds: true, chunkSize: 5 },
  );
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const base = wire === "messages" ? server.origin : server.baseUrl;
  const provider = await openProvider(testSettings(base, wire, {}));
  const cwd = await Deno.makeTempDir({ prefix: "oi_repair_" });
  const events: LoopEvent[] = [];
  try {
    const outcome = await runTestTurn(freshState("run it"), {
      provider,
      harness,
      cwd,
      emit: (event) => events.push(event),
      toolCallRepair: opts.repair,
    });
    assert.deepEqual(server.failures, []);
    const streamed = events.flatMap((e) => e.type === "text_delta" ? [e.text] : []).join("");
    const requests = server.requests.map((r) => viewRequest(wire, r.body, new Headers(r.headers)));
    return { outcome, events, streamed, requests, bodies: server.requests.map((r) => r.body) };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

for (const wire of WIRES) {
  for (const { format, text, markup, prose } of CASES) {
    Deno.test(`a ${format} call written as text runs and is replayed as a structured call over ${wire}`, async () => {
      const r = await turnWith(text, wire);
      assert.deepEqual(r.outcome, { status: "completed", finalText: "All done." });
      assert.equal(r.requests.length, 2);
      const second = r.requests[1];
      assert.deepEqual(second.problems, []);
      const assistant = second.history.find((h) => h.kind === "assistant");
      assert.ok(assistant?.kind === "assistant", JSON.stringify(second.history));
      assert.equal(assistant.calls.length, 1);
      const [call] = assistant.calls;
      assert.equal(call.name, "exec_command");
      assert.deepEqual(call.args, { cmd: `echo rep-${format}` });
      const result = second.history.find((h) => h.kind === "tool_result");
      assert.ok(result?.kind === "tool_result");
      assert.equal(result.callId, call.id);
      assert.match(result.text, new RegExp(`rep-${format}`), "the command ran");
      const body = JSON.stringify(r.bodies[1]);
      for (const token of markup) {
        assert.ok(!body.includes(JSON.stringify(token).slice(1, -1)), `${token} replayed: ${body}`);
        assert.ok(!r.streamed.includes(token), `${token} streamed: ${r.streamed}`);
      }
      if (prose) {
        assert.match(body, /Checking\./, "the prose around the call is kept");
        assert.match(r.streamed, /^Checking\.\s*All done\.$/);
      } else assert.equal(r.streamed, "All done.");
      const repaired = r.events.filter((e) => e.type === "tool_calls_repaired");
      assert.deepEqual(repaired, [{ type: "tool_calls_repaired", count: 1, formats: [format] }]);
    });
  }

  Deno.test(`near misses stay text and end the turn over ${wire}`, async () => {
    const text = "Qwen writes <tool_call> tags; here one names a tool we lack:\n" +
      '<tool_call>{"name": "launch_rockets", "arguments": {}}</tool_call>\n' +
      'and one is quoted: `[TOOL_CALLS]exec_command[ARGS]{"cmd": "ls"}`\n' +
      "and gpt-oss names one too: <|channel|>commentary to=functions.launch_rockets " +
      "<|constrain|>json<|message|>{}<|call|>";
    const r = await turnWith(text, wire);
    assert.deepEqual(r.outcome, { status: "completed", finalText: text });
    assert.equal(r.requests.length, 1);
    assert.equal(r.streamed, text, "held-back text is shown once the reply ends");
    assert.ok(!r.events.some((e) => e.type === "tool_calls_repaired"));
  });
}

Deno.test("tool_call_repair = false leaves a call written as text as the answer", async () => {
  const { text } = CASES[0];
  const r = await turnWith(text, "chat", { repair: false });
  assert.deepEqual(r.outcome, { status: "completed", finalText: text });
  assert.equal(r.requests.length, 1);
});

Deno.test("a call whose arguments are cut off gets the harness's invalid-arguments error", async () => {
  await using server = startFakeProvider([
    { reply: { text: '<tool_call>{"name": "exec_command", "arguments": {"cmd": "echo hel' } },
    {
      expect: { last_tool_result_contains: "failed to parse function arguments" },
      reply: { text: "Sorry." },
    },
  ], { allowForeignIds: true });
  const harness = await loadHarness("native", { builtinDir: HARNESSES });
  const provider = await openProvider(testSettings(server.baseUrl, "chat", {}));
  const outcome = await runTestTurn(freshState(), { provider, harness, cwd: "/" });
  assert.deepEqual(server.failures, []);
  assert.deepEqual(outcome, { status: "completed", finalText: "Sorry." });
});
