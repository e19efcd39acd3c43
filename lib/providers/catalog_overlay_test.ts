import assert from "node:assert/strict";
import { BUILTIN_PROVIDERS } from "./builtin.ts";
import { type Catalog, type CatalogModel, findModel, loadCatalog, modelLimits } from "./catalog.ts";
import { mergeOverlay } from "./catalog_overlay.ts";

const model = (id: string, context: number) => ({
  id,
  name: id,
  context,
  reasoning: false,
  tool_call: true,
});

Deno.test("mergeOverlay() replaces a model of the same id, adds new ones, and leaves the input alone", () => {
  const catalog: Catalog = {
    source: "test",
    providers: [
      { id: "a", name: "A", env: [], models: [model("m1", 1000), model("M2", 2000)] },
      { id: "b", name: "B", env: [], models: [model("x", 5)] },
    ],
  };
  const merged = mergeOverlay<CatalogModel, Catalog>(catalog, {
    providers: [{ id: "a", models: [model("m2", 9000), model("m3", 3000)] }, {
      id: "absent",
      models: [model("y", 1)],
    }],
  });
  assert.deepEqual(merged.providers[0].models.map((m) => [m.id, m.context]), [
    ["m1", 1000],
    ["m2", 9000],
    ["m3", 3000],
  ]);
  assert.equal(merged.providers[1], catalog.providers[1]);
  assert.equal(catalog.providers[0].models.length, 2, "the generated data is not changed");
  assert.equal(merged.providers.length, 2, "a provider the catalog lacks is not invented");
});

Deno.test("loadCatalog() has the first-run default models with a window and prices", async () => {
  const catalog = await loadCatalog();
  assert.equal(await loadCatalog(), catalog, "read once");
  for (const id of ["openai", "anthropic"]) {
    const builtin = BUILTIN_PROVIDERS.find((p) => p.id === id)!;
    const settings = { id, baseUrl: builtin.baseUrl };
    const found = findModel(catalog, settings, builtin.defaultModel);
    assert.ok(found?.context, `${builtin.defaultModel} has a window`);
    assert.ok(found.cost?.input !== undefined && found.cost.output !== undefined);
    const limits = modelLimits(catalog, settings, { model: builtin.defaultModel });
    assert.equal(limits.guessNote, undefined);
    assert.equal(limits.contextWindow, found.context);
  }
});
