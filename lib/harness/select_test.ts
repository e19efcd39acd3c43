import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { HarnessError } from "../errors.ts";
import { loadHarnessCandidates } from "./load.ts";
import {
  chooseHarness,
  chooseLean,
  type HarnessCandidate,
  type HarnessChoiceInput,
  LEAN_MAX_WINDOW,
} from "./select.ts";
import type { HarnessMatch } from "./types.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses", import.meta.url));
const ALL = await loadHarnessCandidates({ builtinDir: BUILTIN });
const BASE: HarnessChoiceInput = {
  model: "some-model",
  providerId: "local",
  providerName: "Local",
  baseUrl: "http://127.0.0.1:8000/v1",
  wireApi: "chat",
  candidates: ALL,
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
  // On Messages a match by name beats claude-code's match by the wire alone.
  assert.equal(choose({ model: "deepseek-r1", wireApi: "messages" }), "claude-code-bare");
});

Deno.test("chooseHarness() uses native when the matching harness does not exist", () => {
  const candidates = ALL.filter((c) => ["native", "claude-code-bare"].includes(c.id));
  assert.equal(choose({ model: "claude-opus-4-6", candidates }), "native");
  assert.equal(choose({ model: "kimi-k2", candidates }), "native");
  assert.equal(choose({ model: "qwen3", candidates }), "native");
  assert.equal(choose({ model: "deepseek-chat", candidates }), "claude-code-bare");
});

function candidate(id: string, over: Partial<HarnessMatch>, user = false): HarnessCandidate {
  const match = { models: [], providers: [], baseUrls: [], wireApis: [], priority: 0, ...over };
  return { id, user, match };
}

Deno.test("chooseHarness() matches model globs whole and ignoring case", () => {
  const candidates = [candidate("mine", { models: ["acme-*-coder", "*/acme"] })];
  assert.equal(choose({ candidates, model: "ACME-7b-Coder" }), "mine");
  assert.equal(choose({ candidates, model: "org/acme" }), "mine");
  assert.equal(choose({ candidates, model: "acme-7b-coder-x" }), "native", "anchored at the end");
  assert.equal(choose({ candidates, model: "x-acme-7b-coder" }), "native", "anchored at start");
  assert.equal(choose({ candidates, model: "acme.7b" }), "native", "'.' is literal");
});

Deno.test("chooseHarness() matches providers on id or name, base URLs and wire APIs", () => {
  const candidates = [
    candidate("by-provider", { providers: ["acme*"] }),
    candidate("by-url", { baseUrls: ["https://llm.example.com/*"] }),
    candidate("by-wire", { wireApis: ["responses"] }),
  ];
  assert.equal(choose({ candidates, providerId: "acme-eu" }), "by-provider");
  assert.equal(choose({ candidates, providerName: "ACME Cloud" }), "by-provider");
  assert.equal(choose({ candidates, baseUrl: "https://LLM.example.com/v1" }), "by-url");
  assert.equal(choose({ candidates, baseUrl: "https://llm.example.com.evil/v1" }), "native");
  assert.equal(choose({ candidates, wireApi: "responses" }), "by-wire");
  assert.equal(choose({ candidates: [candidate("empty", {})] }), "native", "empty never matches");
});

Deno.test("chooseHarness() prefers the higher priority, then a user harness on a tie", () => {
  const low = candidate("low", { models: ["m*"], priority: 1 });
  const high = candidate("high", { models: ["m*"], priority: 5 });
  assert.equal(choose({ candidates: [low, high], model: "m1" }), "high");
  assert.equal(choose({ candidates: [high, low], model: "m1" }), "high");
  const userTie = candidate("a-user", { models: ["m*"], priority: 5 }, true);
  assert.equal(choose({ candidates: [high, userTie], model: "m1" }), "a-user");
  const userLow = candidate("b-user", { models: ["m*"], priority: 4 }, true);
  assert.equal(choose({ candidates: [high, userLow], model: "m1" }), "high");
});

Deno.test("chooseHarness() lets a user harness claim a model from a built-in one", () => {
  const mine = candidate("mine", { models: ["deepseek-chat"], priority: 10 }, true);
  assert.equal(choose({ candidates: [...ALL, mine], model: "deepseek-chat" }), "mine");
  assert.equal(choose({ candidates: [...ALL, mine], model: "deepseek-r1" }), "claude-code-bare");
});

Deno.test("chooseHarness() matches provider patterns against the catalog's vendors of the model", () => {
  const mine = candidate("mine", { providers: ["*acme*"], priority: 50 }, true);
  const input = { candidates: [...ALL, mine], model: "rocket-1", providerId: "my-proxy" };
  assert.equal(choose(input), "native", "control: nothing names the model");
  assert.equal(choose({ ...input, modelVendors: ["acme", "Acme AI"] }), "mine");
});

/** Runs `body` with a folder holding harness "mine" whose spec is only `[match]` `block`. */
async function withMatchDir<T>(block: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "oi-match-" });
  try {
    await Deno.mkdir(`${dir}/mine`);
    await Deno.writeTextFile(`${dir}/mine/harness.toml`, `id = "mine"\n[match]\n${block}\n`);
    return await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function matchLoadError(block: string): Promise<string> {
  return withMatchDir(block, async (builtinDir) => {
    try {
      await loadHarnessCandidates({ builtinDir });
      return "(loaded)";
    } catch (err) {
      assert.ok(err instanceof HarnessError, String(err));
      return `${err.message} | ${err.hint}`;
    }
  });
}

Deno.test("loadHarnessCandidates() names a bad glob or an unknown [match] key", async () => {
  assert.match(
    await matchLoadError(`models = ["qwen?"]`),
    /mine.harness\.toml.*key "match\.models\[0\]": bad pattern: "qwen\?": "\?" is not supported/,
  );
  assert.match(await matchLoadError(`base_urls = [""]`), /match\.base_urls\[0\].*empty pattern/);
  assert.match(
    await matchLoadError(`model = ["x*"]`),
    /unknown key "model" in "match" \| Remove the key/,
  );
  assert.match(await matchLoadError(`priority = 1.5`), /key "match\.priority"/);
  assert.equal(await matchLoadError(`models = ["x*"]\npriority = 3`), "(loaded)");
});

Deno.test("loadHarnessCandidates() lists a valid user harness and skips a broken one", async () => {
  const ids = (block: string) =>
    withMatchDir(
      block,
      async (userDir) =>
        (await loadHarnessCandidates({ builtinDir: BUILTIN, userDir }))
          .filter((c) => c.user).map((c) => c.id),
    );
  assert.deepEqual(await ids(`models = ["x*"]`), ["mine"]);
  assert.deepEqual(await ids(`models = ["x?"]`), []);
});

Deno.test("chooseHarness() goes by the family the server reports when the name matches nothing", () => {
  assert.equal(choose({ model: "tiny-coder", modelFamilies: ["qwen2"] }), "qwen-code");
  assert.equal(choose({ model: "mystery:7b", modelFamilies: ["deepseek2"] }), "claude-code-bare");
  assert.equal(choose({ model: "tiny-coder", modelFamilies: ["llama", "qwen2"] }), "qwen-code");
  assert.equal(choose({ model: "tiny-coder", modelFamilies: ["llama", "gemma3"] }), "gemini-cli");
  assert.equal(choose({ model: "tiny-coder", modelFamilies: ["llama", "mistral"] }), "native");
  assert.equal(choose({ model: "tiny-coder" }), "native");
  // The name decides when it matches, whatever the family.
  assert.equal(choose({ model: "kimi-dev:72b", modelFamilies: ["qwen2"] }), "kimi-code");
  assert.equal(choose({ configured: "pi", model: "x", modelFamilies: ["qwen2"] }), "pi");
});

Deno.test("chooseHarness() picks gemini-cli for Gemini and Gemma on the gemini and Chat wires only", () => {
  for (const wireApi of ["gemini", "chat"] as const) {
    for (
      const over of [
        { model: "gemini-3.8-flash" },
        { model: "google/gemini-3.1-pro-preview" },
        { model: "gemma3:27b" },
        { model: "google/gemma-3-12b-it" },
        { model: "tiny-coder", modelFamilies: ["gemma3"] },
        { providerId: "gemini" },
      ]
    ) {
      assert.equal(
        choose({ ...over, wireApi }),
        "gemini-cli",
        JSON.stringify({ ...over, wireApi }),
      );
    }
  }
  // Never on Messages (claude-code's wire match) nor on Responses, which it does not speak.
  assert.equal(choose({ model: "gemini-3.8-flash", wireApi: "messages" }), "claude-code");
  assert.equal(choose({ model: "google/gemini-3.8-flash", wireApi: "responses" }), "native");
  assert.equal(choose({ model: "gemma3", wireApi: "messages" }), "claude-code");
});

Deno.test("chooseHarness() passes over a matching harness that does not speak the session's wire", () => {
  const only = (wireApis: string[]): HarnessCandidate => ({
    id: "mine",
    user: true,
    match: { models: ["x*"], providers: [], baseUrls: [], wireApis: [], priority: 99 },
    wireApis,
  });
  assert.equal(choose({ model: "x1", candidates: [only(["chat"])] }), "mine");
  assert.equal(choose({ model: "x1", candidates: [only(["responses"])] }), "native");
});

Deno.test("chooseLean() follows lean = true or false, else a small window or parameter count", () => {
  const small = { count: 6e8, text: "0.6B" };
  assert.equal(chooseLean({ configured: true, contextWindow: 262_144 }), "lean = true");
  assert.equal(
    chooseLean({ configured: false, contextWindow: 4096, parameters: small }),
    undefined,
  );
  assert.equal(chooseLean({ parameters: small, contextWindow: 40_960 }), "0.6B parameters");
  assert.equal(chooseLean({ contextWindow: 8192 }), "8,192-token window");
  assert.equal(
    chooseLean({ parameters: small, contextWindow: 8192 }),
    "0.6B parameters, 8,192-token window",
  );
  assert.equal(chooseLean({ contextWindow: LEAN_MAX_WINDOW }), "16,384-token window");
  assert.equal(chooseLean({ contextWindow: LEAN_MAX_WINDOW + 1 }), undefined);
  assert.equal(chooseLean({ parameters: { count: 4e9, text: "4B" } }), "4B parameters");
  assert.equal(chooseLean({ parameters: { count: 4.3e9, text: "4.3B" } }), undefined);
  assert.equal(chooseLean({}), undefined);
});
