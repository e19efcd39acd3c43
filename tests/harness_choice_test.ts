import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarnessCandidates } from "../lib/harness/load.ts";
import { chooseHarness, type HarnessChoiceInput } from "../lib/harness/select.ts";
import type { WireApi } from "../lib/providers/types.ts";

/**
 * Issue 31 item 6: on the Messages wire a harness matched by name, provider, base URL or family
 * wins over claude-code's match by the wire alone (GLM gets zcode, DeepSeek claude-code-bare), and
 * no harness is chosen on a wire it does not speak.
 */

const BUILTIN = fileURLToPath(new URL("../harnesses/", import.meta.url));
const candidates = await loadHarnessCandidates({ builtinDir: BUILTIN });

function choose(wireApi: WireApi, model: string, more: Partial<HarnessChoiceInput> = {}): string {
  return chooseHarness({
    model,
    wireApi,
    providerId: "custom",
    providerName: "Custom",
    baseUrl: "http://127.0.0.1:8080/v1",
    candidates,
    ...more,
  });
}

Deno.test("the Messages wire chooses zcode for GLM and claude-code-bare for DeepSeek", () => {
  assert.equal(choose("messages", "glm-4.6"), "zcode");
  assert.equal(choose("messages", "zai/GLM-4.7"), "zcode");
  assert.equal(
    choose("messages", "some-model", { baseUrl: "https://api.z.ai/api/anthropic" }),
    "zcode",
  );
  assert.equal(choose("messages", "deepseek-chat"), "claude-code-bare");
  assert.equal(
    choose("messages", "chat", { baseUrl: "https://api.deepseek.com/anthropic" }),
    "claude-code-bare",
  );
});

Deno.test("a family the server reports counts before a match by the wire alone", () => {
  assert.equal(choose("messages", "my-model:latest", { modelFamilies: ["glm4"] }), "zcode");
  assert.equal(
    choose("messages", "my-model:latest", { modelFamilies: ["deepseek2"] }),
    "claude-code-bare",
  );
  assert.equal(choose("messages", "my-model:latest", { modelFamilies: ["llama"] }), "claude-code");
});

Deno.test("the Messages wire still means claude-code for Claude and for models nothing claims", () => {
  assert.equal(choose("messages", "claude-opus-5-5"), "claude-code");
  assert.equal(choose("messages", "llama3.3"), "claude-code");
  // Gemini CLI never speaks Messages, and neither do Kimi Code or Qwen Code.
  assert.equal(choose("messages", "gemini-2.5-pro"), "claude-code");
  assert.equal(choose("messages", "kimi-k2"), "claude-code");
  assert.equal(choose("messages", "qwen3-coder"), "claude-code");
});

Deno.test("GLM off the Messages wire is not given zcode, which speaks only Messages", () => {
  assert.equal(choose("chat", "glm-4.6"), "native");
  assert.equal(choose("responses", "z-ai/glm-4.6"), "native");
  assert.equal(choose("chat", "deepseek-chat"), "claude-code-bare");
});
