import assert from "node:assert/strict";
import type { Catalog } from "../providers/catalog.ts";
import { UnlistedModelError } from "./errors.ts";
import { servedLists, startupModelNote, unlistedModel } from "./settings_check.ts";

const model = (id: string) => ({ id, name: id, reasoning: false, tool_call: true });

const CATALOG: Catalog = {
  source: "test",
  providers: [
    {
      id: "openai",
      name: "OpenAI",
      env: [],
      models: [model("gpt-4.1"), model("gpt-4.1-mini"), model("o4-mini")],
    },
    { id: "deepseek", name: "DeepSeek", env: [], models: [model("deepseek-chat")] },
  ],
};

const openai = { id: "openai", baseUrl: "https://api.openai.com/v1" };
const asked = (spec: string, settings = openai) => {
  const slash = spec.indexOf("/");
  return { spec, model: slash > 0 ? spec.slice(slash + 1) : spec, settings };
};

Deno.test("unlistedModel() refuses a name the catalog lacks, naming the nearest as asked", () => {
  const error = unlistedModel(asked("gpt-4.1-mnii"), { catalog: CATALOG });
  assert.ok(error instanceof UnlistedModelError);
  assert.equal(
    error.message,
    'Unknown model "gpt-4.1-mnii" for provider "openai": it is not in the model catalog',
  );
  assert.equal(error.nearest[0], "gpt-4.1-mini");
  assert.match(error.hint!, /^Did you mean gpt-4\.1-mini( or [^?]+)?\? "gpt-4\.1-mnii!" uses/);
  const deepseek = { id: "deepseek", baseUrl: "https://api.deepseek.com" };
  const named = unlistedModel(asked("deepseek/deepseek-chta", deepseek), { catalog: CATALOG });
  assert.deepEqual(named?.nearest, ["deepseek/deepseek-chat"]);
  const far = unlistedModel(asked("zzzzzzzz"), { catalog: CATALOG });
  assert.deepEqual(far?.nearest, [], "no near names: no guess");
});

Deno.test("unlistedModel() takes a listed name, and any name where there is no list at hand", () => {
  assert.equal(unlistedModel(asked("o4-mini"), { catalog: CATALOG }), undefined);
  assert.equal(unlistedModel(asked("openai/gpt-4.1-mini"), { catalog: CATALOG }), undefined);
  // The model in use (or the provider's default) is taken though no list has it.
  const own = { ...asked("my-fine-tune"), providerModel: "my-fine-tune" };
  assert.equal(unlistedModel(own, { catalog: CATALOG }), undefined);
  // A provider the catalog does not know, with no server list fetched.
  const vllm = { id: "vllm", baseUrl: "http://127.0.0.1:8000/v1" };
  assert.equal(unlistedModel(asked("anything", vllm), { catalog: CATALOG }), undefined);
});

Deno.test("unlistedModel() checks against a server's list fetched earlier, not the catalog", () => {
  const ollama = { id: "ollama", baseUrl: "http://127.0.0.1:11434/v1" };
  const served = servedLists([
    { provider: "ollama", models: [{ id: "qwen3:latest" }], live: {} },
    { provider: "lmstudio", models: [], live: { error: "connection refused" } },
    { provider: "openai", models: [{ id: "gpt-4.1" }] },
  ]);
  assert.deepEqual([...served.keys()], ["ollama", "lmstudio"], "catalog rows are no server list");
  const lists = { catalog: CATALOG, served };
  // Ollama takes a name without its tag as NAME:latest.
  assert.equal(unlistedModel(asked("ollama/qwen3", ollama), lists), undefined);
  const missing = unlistedModel(asked("ollama/qwen", ollama), lists);
  assert.match(missing?.message ?? "", /"qwen" for provider "ollama": it is not in the server's/);
  assert.deepEqual(missing?.nearest, ["ollama/qwen3:latest"]);
  // A server that could not be asked has no list: any name is taken.
  const lmstudio = { id: "lmstudio", baseUrl: "http://127.0.0.1:1234/v1" };
  assert.equal(unlistedModel(asked("whatever", lmstudio), lists), undefined);
});

Deno.test("startupModelNote() notes a start-up model the catalog lacks, once and never for a local server", () => {
  const note = startupModelNote({ model: "gpt-4.1-mnii", settings: openai }, CATALOG);
  assert.match(note ?? "", /^The model "gpt-4\.1-mnii" is not in the model catalog for provider/);
  assert.match(note ?? "", /\(nearest listed: gpt-4\.1-mini\b.*\); it is used as given$/);
  assert.equal(startupModelNote({ model: "gpt-4.1", settings: openai }, CATALOG), undefined);
  // The window's guess note says so already.
  const guessed = { model: "gpt-4.1-mnii", settings: openai, guessNote: "note: ... a guess" };
  assert.equal(startupModelNote(guessed, CATALOG), undefined);
  // A local server was asked for the model at start-up; the catalog's list of it is no authority.
  const catalog = { ...CATALOG, providers: [{ ...CATALOG.providers[0], id: "lmstudio" }] };
  const lmstudio = { id: "lmstudio", baseUrl: "http://127.0.0.1:1234/v1" };
  assert.equal(startupModelNote({ model: "qwen3-8b", settings: lmstudio }, catalog), undefined);
});
