import assert from "node:assert/strict";
import { chooseHarness, type HarnessChoiceInput } from "./select.ts";

const ALL = ["native", "claude-code", "claude-code-bare", "kimi-code", "qwen-code"];
const BASE: HarnessChoiceInput = {
  model: "some-model",
  providerId: "local",
  providerName: "Local",
  baseUrl: "http://127.0.0.1:8000/v1",
  wireApi: "chat",
  available: ALL,
};

function choose(over: Partial<HarnessChoiceInput>): string {
  return chooseHarness({ ...BASE, ...over });
}

Deno.test("chooseHarness() lets a configured harness win over every rule", () => {
  assert.equal(choose({ configured: "zcode", model: "claude-opus-4-6" }), "zcode");
});

Deno.test("chooseHarness() picks claude-code for each row-1 condition", () => {
  for (
    const over of [
      { wireApi: "messages" as const },
      { model: "openrouter/Anthropic/some" },
      { model: "Claude-Sonnet-4-5" },
      { providerId: "my-anthropic" },
      { providerName: "Anthropic" },
      { baseUrl: "https://API.anthropic.com/v1" },
    ]
  ) assert.equal(choose(over), "claude-code", JSON.stringify(over));
});

Deno.test("chooseHarness() picks kimi-code for each row-2 condition", () => {
  for (
    const over of [
      { model: "kimi-k2" },
      { model: "moonshot-v1" },
      { providerId: "kimi" },
      { providerId: "moonshot" },
      { providerName: "Kimi" },
      { providerName: "Moonshot AI" },
      { baseUrl: "https://api.kimi.com/coding/v1" },
      { baseUrl: "https://api.moonshot.ai/v1" },
      { baseUrl: "https://api.moonshot.cn/v1" },
    ]
  ) assert.equal(choose(over), "kimi-code", JSON.stringify(over));
});

Deno.test("chooseHarness() picks qwen-code for each row-3 condition", () => {
  for (
    const over of [
      { model: "Qwen3-Coder" },
      { model: "qwq-32b" },
      { model: "org/QwQ-32B" },
      { providerId: "qwen" },
      { providerId: "dashscope" },
      { providerName: "Qwen Cloud" },
      { providerName: "DashScope" },
      { baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1" },
      { baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1" },
    ]
  ) assert.equal(choose(over), "qwen-code", JSON.stringify(over));
  assert.equal(choose({ model: "x-qwq" }), "native", "qwq must start the model or follow a /");
  assert.equal(choose({ baseUrl: "https://dashscope.aliyuncs.com/api/v1" }), "native");
});

Deno.test("chooseHarness() picks claude-code-bare for each row-4 condition", () => {
  for (
    const over of [
      { model: "DeepSeek-V3" },
      { providerId: "deepseek" },
      { providerName: "DeepSeek" },
      { baseUrl: "https://api.deepseek.com" },
    ]
  ) assert.equal(choose(over), "claude-code-bare", JSON.stringify(over));
});

Deno.test("chooseHarness() falls back to native when nothing matches", () => {
  assert.equal(choose({}), "native");
  assert.equal(choose({ model: "gpt-5" }), "native");
});

Deno.test("chooseHarness() applies rules in order: the first match wins", () => {
  assert.equal(choose({ model: "claude-kimi-qwen-deepseek" }), "claude-code");
  assert.equal(choose({ model: "kimi-qwen" }), "kimi-code");
  assert.equal(choose({ model: "qwen-deepseek-distill" }), "qwen-code");
  assert.equal(choose({ model: "deepseek-r1", wireApi: "messages" }), "claude-code");
});

Deno.test("chooseHarness() uses native when the matching harness does not exist", () => {
  const available = ["native", "claude-code-bare"];
  assert.equal(choose({ model: "claude-opus-4-6", available }), "native");
  assert.equal(choose({ model: "kimi-k2", available }), "native");
  assert.equal(choose({ model: "qwen3", available }), "native");
  assert.equal(choose({ model: "deepseek-chat", available }), "claude-code-bare");
});
