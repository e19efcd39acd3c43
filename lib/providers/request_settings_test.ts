import assert from "node:assert/strict";
import type { RequestSpecs } from "../model/request_settings.ts";
import { toWire as messagesBody } from "./anthropic_messages.ts";
import { toWire as chatBody } from "./openai_chat.ts";
import { toWire as responsesBody } from "./openai_responses.ts";
import { simpleRequest } from "./_testing.ts";
import type { Compat } from "./types.ts";

type Json = Record<string, unknown>;

const CLAUDE_LIKE: RequestSpecs = {
  messages: {
    base: {
      maxOutputTokens: 32000,
      thinking: "budget",
      thinkingBudget: "max",
      effort: "medium",
      effortMap: { xhigh: "high" },
      betas: ["interleaved-thinking-2025-05-14"],
      thinkingBody: { context_management: { edits: [] } },
      body: { metadata: { user_id: "{session_id}" } },
      cache: ["last_tool", "last_message"],
    },
    rules: [{
      models: [/^claude-opus-5.*$/i],
      patterns: ["claude-opus-5*"],
      set: { maxOutputTokens: 128000, thinking: "adaptive", thinkingDisplay: "omitted" },
    }],
  },
};

const tool = { name: "Read", description: "read", parameters: { type: "object" } };

function messages(model: string, extra: Parameters<typeof simpleRequest>[0] = {}, compat = {}) {
  return messagesBody(
    simpleRequest({ model, settings: CLAUDE_LIKE, sessionId: "s1", tools: [tool], ...extra }),
    { compat },
  );
}

Deno.test("Messages: a model rule sets the limit and adaptive thinking with the mapped effort", () => {
  const body = messages("claude-opus-5-5", { reasoningEffort: "xhigh" });
  assert.equal(body.max_tokens, 128000);
  assert.deepEqual(body.thinking, { type: "adaptive", display: "omitted" });
  assert.deepEqual(body.output_config, { effort: "high" });
  assert.deepEqual(body.metadata, { user_id: "s1" });
  assert.deepEqual(body.context_management, { edits: [] });
  assert.deepEqual((body.tools as Json[]).at(-1)!.cache_control, { type: "ephemeral" });
  const last = (body.messages as Array<{ content: Json[] }>).at(-1)!.content.at(-1)!;
  assert.deepEqual(last.cache_control, { type: "ephemeral" });
});

Deno.test("Messages: other models get budget thinking of the limit less one", () => {
  const body = messages("claude-sonnet-4-5");
  assert.equal(body.max_tokens, 32000);
  assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 31999 });
  assert.equal(body.output_config, undefined);
});

Deno.test("Messages: the user's settings and the endpoint's compat win over the harness", () => {
  const off = messages("claude-opus-5-5", { thinking: "off", maxOutputTokens: 1000 });
  assert.equal(off.thinking, undefined);
  assert.equal(off.context_management, undefined, "thinking_body only while thinking is on");
  assert.equal(off.max_tokens, 1000);
  assert.equal(messages("claude-opus-5-5", { reasoningEffort: "none" }).thinking, undefined);
  const compat: Compat = { thinking: "budget", dropKeys: ["metadata"] };
  const budget = messages("claude-opus-5-5", {}, compat);
  assert.deepEqual(budget.thinking, { type: "enabled", budget_tokens: 127999 });
  assert.equal(budget.metadata, undefined);
  assert.equal(messages("claude-opus-5-5", {}, { thinking: "off" }).thinking, undefined);
});

Deno.test("Messages: system parts are blocks with their breakpoints; system messages per compat", () => {
  const request = {
    system: [{ text: "id", slot: "system" as const, cache: true }, {
      text: "rules",
      slot: "system" as const,
    }],
    messages: [
      { role: "user" as const, blocks: [{ type: "text" as const, text: "hi" }] },
      {
        role: "user" as const,
        systemRole: true,
        blocks: [{ type: "text" as const, text: "env", context: true, cache: true }],
      },
    ],
  };
  const native = messagesBody(simpleRequest(request), { compat: { systemMessages: true } });
  assert.deepEqual(native.system, [
    { type: "text", text: "id", cache_control: { type: "ephemeral" } },
    { type: "text", text: "rules" },
  ]);
  assert.deepEqual((native.messages as Json[]).map((m) => m.role), ["user", "system"]);
  const folded = messagesBody(simpleRequest(request), { compat: {} });
  assert.deepEqual(folded.messages, [{
    role: "user",
    content: [
      {
        type: "text",
        text: "<system-reminder>\nenv\n</system-reminder>",
        cache_control: { type: "ephemeral" },
      },
      { type: "text", text: "hi" },
    ],
  }], "a reminder before the user's text, which ends the message");
});

Deno.test("Responses: developer parts, user items and reasoning settings by model", () => {
  const settings: RequestSpecs = {
    responses: {
      base: {
        reasoningSummary: "auto",
        include: ["reasoning.encrypted_content"],
        parallelToolCalls: false,
        promptCacheKey: "{session_id}",
      },
      rules: [{ models: [/^gpt-4.*$/i], patterns: ["gpt-4*"], set: { reasoning: false } }],
    },
  };
  const request = simpleRequest({
    settings,
    sessionId: "s2",
    tools: [tool],
    system: [
      { text: "base", slot: "developer" },
      { text: "perm", slot: "developer" },
      { text: "skills", slot: "developer", samePart: true },
    ],
    messages: [
      { role: "user", systemRole: true, blocks: [{ type: "text", text: "late" }] },
      { role: "user", blocks: [{ type: "text", text: "hi" }] },
    ],
  });
  const body = responsesBody(request, { compat: {} });
  assert.equal(body.instructions, undefined);
  const input = body.input as Json[];
  assert.deepEqual(input.map((i) => [i.role, (i.content as Json[]).length]), [
    ["developer", 1],
    ["developer", 2],
    ["developer", 1],
    ["user", 1],
  ]);
  assert.deepEqual(body.reasoning, { summary: "auto" });
  assert.deepEqual(body.include, ["reasoning.encrypted_content"]);
  assert.equal(body.parallel_tool_calls, false);
  assert.equal(body.prompt_cache_key, "s2");
  const plain = responsesBody({ ...request, model: "gpt-4.1" }, { compat: {} });
  assert.equal(plain.reasoning, undefined);
  assert.equal(plain.include, undefined);
  const summary = responsesBody({ ...request, reasoningSummary: "none", verbosity: "low" }, {
    compat: {},
  });
  assert.equal(summary.reasoning, undefined);
  assert.deepEqual(summary.text, { verbosity: "low" });
});

Deno.test("Chat: text parts, the limit's field and thinking keys sent only with an effort", () => {
  const settings: RequestSpecs = {
    chat: {
      base: {
        maxOutputTokens: 16384,
        maxTokensField: "max_completion_tokens",
        textParts: true,
        effortMap: { minimal: "low" },
        thinkingBody: { thinking: { type: "enabled" } },
        toolChoice: "auto",
      },
      rules: [],
    },
  };
  const request = simpleRequest({
    settings,
    tools: [tool],
    messages: [{
      role: "user",
      blocks: [{ type: "text", text: "<reminder>", context: true }, { type: "text", text: "hi" }],
    }],
  });
  const body = chatBody(request, { compat: {} });
  assert.equal(body.max_completion_tokens, 16384);
  assert.equal(body.tool_choice, "auto");
  assert.equal(body.thinking, undefined);
  assert.deepEqual((body.messages as Json[])[1].content, [
    { type: "text", text: "<reminder>" },
    { type: "text", text: "hi" },
  ]);
  const thinking = chatBody({ ...request, reasoningEffort: "minimal" }, {
    compat: { maxTokensField: "max_tokens" },
  });
  assert.equal(thinking.reasoning_effort, "low");
  assert.deepEqual(thinking.thinking, { type: "enabled" });
  assert.equal(thinking.max_tokens, 16384, "compat names the field the endpoint takes");
  const joined = chatBody({ ...request, settings: {} }, { compat: {} });
  assert.equal((joined.messages as Json[])[1].content, "<reminder>\n\nhi");
});

Deno.test("the model's own output limit caps the harness's and the Messages default", () => {
  assert.equal(messages("claude-sonnet-4-5", { maxOutputCap: 8192 }).max_tokens, 8192);
  const bare = messagesBody(simpleRequest({ maxOutputCap: 4096 }), { compat: {} });
  assert.equal(bare.max_tokens, 4096);
  assert.equal(messagesBody(simpleRequest(), { compat: {} }).max_tokens, 32000);
  assert.equal(
    messages("claude-sonnet-4-5", { maxOutputCap: 8192, maxOutputTokens: 20000 }).max_tokens,
    20000,
    "the user's own limit is not capped",
  );
});
