import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../lib/harness/load.ts";
import { runTurn } from "../lib/loop/agent_loop.ts";
import { allowAll, freshState } from "../lib/loop/_test_loop.ts";
import { builtinProvider } from "../lib/providers/builtin.ts";
import { openProvider } from "../lib/providers/mod.ts";
import { testSettings } from "../lib/providers/_testing.ts";
import type { Compat, WireApi } from "../lib/providers/types.ts";
import { inProcessFs } from "../sandbox/file_system.ts";
import { type ScriptTurn, startFakeProvider } from "./fake_provider/server.ts";

/**
 * Reasoning round-trips as the harness decides (request-shapes.md §3.3 Codex, §1.4 Claude Code,
 * §9 Qwen Code, Kimi, §10 DeepSeek TUI): the fake provider returns reasoning with a tool call,
 * and the second request body carries it back, over a built-in and a custom provider.
 */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
type Json = Record<string, unknown>;

/** A tool call (with `thinking` when given), then a closing text reply. */
function script(thinking?: string): ScriptTurn[] {
  const call = { name: "no_such_tool", args: {}, id: "call_a" };
  return [
    { reply: { ...(thinking ? { thinking } : {}), tool_calls: [call] } },
    { reply: { text: "done" } },
  ];
}

/** Runs one turn of `harnessId` over `wire` and returns the second request body. */
async function secondBody(
  harnessId: string,
  wire: WireApi,
  opts: { compat?: Compat; thinking?: string },
): Promise<Json> {
  await using server = startFakeProvider(script(opts.thinking));
  const harness = await loadHarness(harnessId, { builtinDir: HARNESSES });
  const base = wire === "messages" ? server.origin : server.baseUrl;
  const provider = await openProvider(testSettings(base, wire, { compat: opts.compat ?? {} }));
  const cwd = await Deno.makeTempDir({ prefix: "oi_replay_" });
  try {
    const signal = new AbortController().signal;
    const outcome = await runTurn(freshState(), {
      toolHooks: allowAll,
      provider,
      harness,
      ctx: { cwd, signal, env: {}, state: new Map(), fs: inProcessFs },
      emit: () => {},
      signal,
    });
    assert.equal(outcome.status, "completed", JSON.stringify(server.failures));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
  assert.deepEqual(server.failures, []);
  assert.equal(server.requests.length, 2);
  return server.requests[1].body as Json;
}

function chatAssistant(body: Json): Json {
  const found = (body.messages as Json[]).find((m) => m.role === "assistant");
  assert.ok(found, JSON.stringify(body.messages));
  return found;
}

const PROVIDERS: [string, Compat][] = [
  ["built-in dashscope", builtinProvider("dashscope")!.compat],
  ["built-in openrouter", builtinProvider("openrouter")!.compat],
  ["a custom provider without compat", {}],
];

/** The replayed reasoning: `reasoning_content`, or the text of OpenRouter's `reasoning_details`. */
function replayed(message: Record<string, unknown>): unknown {
  const details = message.reasoning_details as Array<{ text: string }> | undefined;
  return details ? details.map((d) => d.text).join("") : message.reasoning_content;
}

for (const [label, compat] of PROVIDERS) {
  for (const id of ["qwen-code", "kimi-code", "deepseek-tui"]) {
    Deno.test(`${id} over ${label} replays its reasoning in the second chat request`, async () => {
      const body = await secondBody(id, "chat", { compat, thinking: "look first" });
      assert.equal(replayed(chatAssistant(body)), "look first");
    });
  }

  Deno.test(`deepseek-tui over ${label} replays its placeholder on a call without reasoning`, async () => {
    const body = await secondBody("deepseek-tui", "chat", { compat });
    assert.equal(replayed(chatAssistant(body)), "(reasoning omitted)");
  });
}

Deno.test("over built-in openrouter reasoning goes back as reasoning_details, never reasoning_content", async () => {
  const compat = builtinProvider("openrouter")!.compat;
  const body = await secondBody("qwen-code", "chat", { compat, thinking: "look first" });
  const message = chatAssistant(body);
  assert.equal("reasoning_content" in message, false);
  assert.deepEqual(message.reasoning_details, [
    { type: "reasoning.text", text: "look first", index: 0 },
  ]);
});

Deno.test("kimi-code over built-in moonshot replays reasoning_content", async () => {
  const compat = builtinProvider("moonshot")!.compat;
  const body = await secondBody("kimi-code", "chat", { compat, thinking: "plan" });
  assert.equal(chatAssistant(body).reasoning_content, "plan");
});

Deno.test("a harness that replays nothing sends no reasoning_content", async () => {
  const body = await secondBody("opencode", "chat", { thinking: "secret" });
  assert.equal("reasoning_content" in chatAssistant(body), false);
});

Deno.test("a provider compat with reasoning_replay none sends no reasoning", async () => {
  const compat: Compat = { reasoningReplay: "none" };
  for (const thinking of ["look first", undefined]) {
    const body = await secondBody("deepseek-tui", "chat", { compat, thinking });
    assert.equal("reasoning_content" in chatAssistant(body), false);
  }
});

Deno.test("a provider compat's reasoning_field names the replayed field", async () => {
  const compat: Compat = { reasoningField: "reasoning" };
  const body = await secondBody("qwen-code", "chat", { compat, thinking: "look first" });
  const assistant = chatAssistant(body);
  assert.equal(assistant.reasoning, "look first");
  assert.equal("reasoning_content" in assistant, false);
});

Deno.test("native over Responses replays the encrypted reasoning item before its function call", async () => {
  const body = await secondBody("native", "responses", { thinking: "look first" });
  const input = body.input as Json[];
  const reasoning = input.findIndex((item) => item.type === "reasoning");
  const call = input.findIndex((item) => item.type === "function_call");
  assert.ok(reasoning >= 0, JSON.stringify(input));
  assert.equal(call, reasoning + 1);
  assert.equal(typeof input[reasoning].encrypted_content, "string");
  assert.ok((input[reasoning].encrypted_content as string).length > 0);
});

Deno.test("claude-code over Messages replays the thinking block with its signature", async () => {
  const body = await secondBody("claude-code", "messages", { thinking: "look first" });
  const assistant = (body.messages as Json[]).find((m) => m.role === "assistant");
  const blocks = assistant?.content as Json[];
  assert.equal(blocks[0].type, "thinking");
  assert.equal(blocks[0].thinking, "look first");
  assert.ok(typeof blocks[0].signature === "string" && blocks[0].signature.length > 0);
  assert.equal(blocks[1].type, "tool_use");
});
