import assert from "node:assert/strict";
import { MissingKeyError } from "../../config/auth.ts";
import type { ProviderChoice } from "../../session/choices.ts";
import { wireMismatch } from "../../session/setup.ts";
import { UnlistedModelError } from "../../session/errors.ts";
import type { ProviderSettings } from "../../providers/types.ts";
import { makeStyle } from "../term/style.ts";
import { pickableModels } from "./model_command.ts";
import { inReplTerms } from "./repl_hints.ts";

const model = (id: string, more: object = {}) => ({ id, name: id, current: false, ...more });

const PROVIDERS: ProviderChoice[] = [
  {
    provider: "openai",
    name: "OpenAI",
    model: "gpt-4.1",
    current: true,
    key: true,
    models: [model("gpt-4.1", { current: true }), model("gpt-4.1-mini"), model("o4-mini")],
  },
  {
    provider: "deepseek",
    name: "DeepSeek",
    model: "deepseek-chat",
    current: false,
    key: false,
    envKey: "DEEPSEEK_API_KEY",
    models: [model("deepseek-chat")],
  },
  {
    provider: "ollama",
    name: "Ollama",
    model: "",
    current: false,
    key: true,
    models: [],
    live: { error: "connection refused" },
  },
  { provider: "vllm", name: "vLLM", model: "my-model", current: false, key: true, models: [] },
];

Deno.test("pickableModels() offers the models of providers usable now, the one in use marked", () => {
  const rows = pickableModels(PROVIDERS, makeStyle(false));
  assert.deepEqual(rows.map((r) => r.label), [
    "openai/gpt-4.1",
    "openai/gpt-4.1-mini",
    "openai/o4-mini",
    "vllm/my-model",
  ]);
  assert.match(rows[0].detail!, /^in use · gpt-4\.1$/);
  assert.deepEqual(rows[3].value, { provider: "vllm", model: model("my-model") });
});

Deno.test("inReplTerms() gives a wire mismatch and a missing key REPL hints, without flags", () => {
  const wire = inReplTerms(wireMismatch("claude-code", "responses", ["chat", "messages"])) as {
    message: string;
    hint: string;
  };
  assert.equal(wire.message, 'wire_api = "responses" is not supported by harness = "claude-code"');
  assert.match(wire.hint, /wire_api is one of "chat", "messages" \(\/model\)/);
  assert.match(wire.hint, /harness that speaks "responses" \(\/harness lists them\)/);
  const settings = { id: "deepseek", envKey: "DEEPSEEK_API_KEY" } as ProviderSettings & {
    envKey: string;
  };
  const key = inReplTerms(new MissingKeyError(settings, "is not set")) as { hint: string };
  assert.match(key.hint, /export DEEPSEEK_API_KEY=\.\.\..*\/model lists them/);
  for (const hint of [wire.hint, key.hint]) assert.doesNotMatch(hint, /--|-c /);
  const other = new Error("other");
  assert.equal(inReplTerms(other), other);
});

Deno.test("inReplTerms() words an unlisted model's hint with /model, naming the nearest", () => {
  const at = { model: "gpt-4.1-mnii", provider: "openai", spec: "gpt-4.1-mnii" };
  const error = new UnlistedModelError(at, "catalog", ["gpt-4.1-mini", "gpt-4.1"]);
  const worded = inReplTerms(error) as { message: string; hint: string };
  assert.equal(worded.message, error.message);
  assert.equal(
    worded.hint,
    "Did you mean /model gpt-4.1-mini or /model gpt-4.1? /model openai/ lists its models; " +
      "/model gpt-4.1-mnii! uses the name as given",
  );
  const far = new UnlistedModelError({ ...at, model: "zz", spec: "zz" }, "catalog", []);
  assert.match((inReplTerms(far) as { hint: string }).hint, /^\/model openai\/ lists/);
});
