/**
 * A harness that lists "gemini" in `wire_apis` runs a whole turn on the Gemini wire against the
 * scripted fake provider: a thought and a signed function call, the tool's result as a
 * `functionResponse`, the signature replayed though the harness drops thinking, and the
 * harness's `[request.gemini]` settings over the wire's own (Gemini CLI's).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/config/load.ts";
import { resolveProvider } from "../lib/config/provider.ts";
import { BASE_SPEC, loadTestHarness } from "../lib/harness/_test_harness.ts";
import { freshState } from "../lib/loop/_test_loop.ts";
import { testSettings } from "../lib/providers/_testing.ts";
import { openProvider } from "../lib/providers/mod.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { runTestTurn } from "./_run_turn.ts";

const SPEC = BASE_SPEC.replace('wire_apis = ["chat"]', 'wire_apis = ["gemini", "chat"]') +
  '\n[request.gemini]\ntemperature = 0.5\nthinking_level = "LOW"\n';

type Json = Record<string, unknown>;

Deno.test("a harness on the gemini wire runs a tool call round trip with the signature replayed", async () => {
  const harness = await loadTestHarness(SPEC);
  assert.deepEqual(harness.wireApis, ["gemini", "chat"]);
  await using fake = startFakeProvider([
    {
      expect: { system_contains: "s", tools_include: ["run"] },
      reply: {
        thinking: "Run the echo.",
        tool_calls: [{ name: "run", args: { command: "echo gemini-ok" } }],
      },
    },
    { expect: { last_tool_result_contains: "gemini-ok" }, reply: { text: "done" } },
  ], { apiKey: "g-key" });
  const provider = await openProvider(testSettings(fake.baseUrl, "gemini", { apiKey: "g-key" }));
  const cwd = await Deno.makeTempDir({ prefix: "oi_gemini_" });
  try {
    const outcome = await runTestTurn(
      { ...freshState("run it"), model: "gemini-3-pro" },
      { provider, harness, cwd },
    );
    assert.deepEqual(outcome, { status: "completed", finalText: "done" });
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
  assert.deepEqual(fake.failures, []);
  const [first, second] = fake.requests.map((r) => r.body as Json);
  assert.equal(fake.requests[0].path, "/v1/models/gemini-3-pro:streamGenerateContent");
  assert.deepEqual(first.systemInstruction, { role: "user", parts: [{ text: "s" }] });
  assert.deepEqual(first.generationConfig, {
    temperature: 0.5,
    topP: 0.95,
    topK: 64,
    thinkingConfig: { includeThoughts: true, thinkingLevel: "LOW" },
  });
  const contents = second.contents as { role: string; parts: Json[] }[];
  assert.deepEqual(contents.map((c) => c.role), ["user", "model", "user"]);
  const [call] = contents[1].parts;
  assert.equal(contents[1].parts.length, 1, "reasoning_replay none drops the thought part");
  assert.equal((call.functionCall as Json).id, "call_1");
  assert.equal(typeof call.thoughtSignature, "string");
  const response = contents[2].parts[0].functionResponse as Json;
  assert.equal(response.id, "call_1");
  assert.match(JSON.stringify(response.response), /gemini-ok/);
});

Deno.test("the gemini provider without GEMINI_API_KEY names the variable and how to set it", async () => {
  const home = await Deno.makeTempDir({ prefix: "oi_gemini_home_" });
  try {
    const env = { OPENINTERPRETER_HOME: home };
    const flags = { model_provider: "gemini" };
    const config = await loadConfig({ cwd: home, env, flags, overrides: [] });
    assert.throws(() => resolveProvider(config, env), (error: Error & { hint?: string }) => {
      assert.match(error.message, /provider "gemini": environment variable "GEMINI_API_KEY"/);
      assert.match(error.hint ?? "", /export GEMINI_API_KEY=/);
      return true;
    });
    const { settings, model } = resolveProvider(config, { ...env, GEMINI_API_KEY: "g" });
    assert.equal(settings.baseUrl, "https://generativelanguage.googleapis.com/v1beta");
    assert.equal(settings.wireApi, "gemini");
    assert.equal(settings.apiKey, "g");
    assert.equal(model, "gemini-2.5-pro");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
