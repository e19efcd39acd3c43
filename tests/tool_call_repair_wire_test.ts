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

const FORMATS: Record<string, string> = {
  hermes:
    'Checking.\n<tool_call>\n{"name": "exec_command", "arguments": {"cmd": "echo rep-hermes"}}' +
    "\n</tool_call>",
  qwen_xml: "Checking.\n<tool_call>\n<function=exec_command>\n<parameter=cmd>\necho rep-qwen\n" +
    "</parameter>\n</function>\n</tool_call>",
  fenced_json:
    'Checking.\n```json\n{"name": "exec_command", "arguments": {"cmd": "echo rep-fence"}}' +
    "\n```",
  mistral:
    'Checking.[TOOL_CALLS][{"name": "exec_command", "arguments": {"cmd": "echo rep-mistral"}}]',
};

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
  for (const [format, text] of Object.entries(FORMATS)) {
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
      const marker = format === "qwen_xml" ? "qwen" : format === "fenced_json" ? "fence" : format;
      assert.deepEqual(call.args, { cmd: `echo rep-${marker}` });
      const result = second.history.find((h) => h.kind === "tool_result");
      assert.ok(result?.kind === "tool_result");
      assert.equal(result.callId, call.id);
      assert.match(result.text, new RegExp(`rep-${marker}`), "the command ran");
      const body = JSON.stringify(r.bodies[1]);
      for (const markup of ["<tool_call>", "[TOOL_CALLS]", "```json", "<function="]) {
        assert.ok(!body.includes(markup), `${markup} left in the replayed request: ${body}`);
        assert.ok(!r.streamed.includes(markup), `${markup} streamed: ${r.streamed}`);
      }
      assert.match(body, /Checking\./, "the prose around the call is kept");
      assert.match(r.streamed, /^Checking\.\s*All done\.$/);
      const repaired = r.events.filter((e) => e.type === "tool_calls_repaired");
      assert.deepEqual(repaired, [{ type: "tool_calls_repaired", count: 1, formats: [format] }]);
    });
  }

  Deno.test(`near misses stay text and end the turn over ${wire}`, async () => {
    const text = "Qwen writes <tool_call> tags; here one names a tool we lack:\n" +
      '<tool_call>{"name": "launch_rockets", "arguments": {}}</tool_call>\n' +
      'and one is quoted: `[TOOL_CALLS]exec_command[ARGS]{"cmd": "ls"}`';
    const r = await turnWith(text, wire);
    assert.deepEqual(r.outcome, { status: "completed", finalText: text });
    assert.equal(r.requests.length, 1);
    assert.equal(r.streamed, text, "held-back text is shown once the reply ends");
    assert.ok(!r.events.some((e) => e.type === "tool_calls_repaired"));
  });
}

Deno.test("tool_call_repair = false leaves a call written as text as the answer", async () => {
  const r = await turnWith(FORMATS.hermes, "chat", { repair: false });
  assert.deepEqual(r.outcome, { status: "completed", finalText: FORMATS.hermes });
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
