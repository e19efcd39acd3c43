import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../tests/e2e/_harness_env.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE = join(REPO, "tests", "fixtures", "catalog", "models_dev.json");

function runCatalogTask(...args: string[]) {
  return run(
    Deno.execPath(),
    ["task", "--quiet", "--config", "deno.json", "catalog", ...args],
    REPO,
  );
}

Deno.test("deno task catalog keeps only tool-calling models of a models.dev snapshot, sorted", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_catalog_" });
  try {
    const out = join(dir, "catalog.json");
    const { code, stderr } = await runCatalogTask("--from", FIXTURE, "--out", out);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /catalog\.json: 2 providers, 3 models$/m);
    const text = await Deno.readTextFile(out);
    assert.ok(text.endsWith("}\n"));
    assert.deepEqual(JSON.parse(text), {
      source: "models.dev snapshot models_dev.json",
      providers: [
        {
          id: "beta",
          name: "Beta",
          env: [],
          models: [{
            id: "beta-1",
            name: "Beta One",
            context: 128000,
            output: 8192,
            reasoning: false,
            tool_call: true,
            cost: { input: 0, output: 0 },
          }],
        },
        {
          id: "zeta",
          name: "Zeta Cloud",
          api: "https://api.zeta.example/v1",
          env: ["ZETA_API_KEY"],
          models: [
            {
              id: "zeta-coder",
              name: "Zeta Coder",
              family: "zeta",
              context: 262144,
              output: 32768,
              reasoning: true,
              tool_call: true,
              input: ["text"],
              cost: { input: 0.4, output: 1.6, cache_read: 0.04 },
            },
            { id: "zeta-mini", name: "Zeta Mini", reasoning: false, tool_call: true },
          ],
        },
      ],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task catalog names a snapshot that is not in the models.dev format", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_catalog_" });
  try {
    const bad = join(dir, "bad.json");
    await Deno.writeTextFile(bad, JSON.stringify({ acme: { name: "Acme", models: [] } }));
    const out = join(dir, "catalog.json");
    const result = await runCatalogTask("--from", bad, "--out", out);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: Provider "acme" has no "models" object/m);
    assert.match(result.stderr, /^hint: Give a models\.dev api\.json snapshot/m);
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
    const usage = await runCatalogTask("--form", bad);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^error: Unknown argument "--form"/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the committed lib/providers/catalog.json is what the pinned snapshot generates", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi_catalog_" });
  try {
    const out = join(dir, "catalog.json");
    const { code, stderr } = await runCatalogTask("--out", out);
    assert.equal(code, 0, stderr);
    const committed = await Deno.readTextFile(join(REPO, "lib", "providers", "catalog.json"));
    assert.equal(await Deno.readTextFile(out), committed, "run: deno task catalog");
    const catalog = JSON.parse(committed);
    const all = catalog.providers.flatMap((p: { models: { tool_call: boolean }[] }) => p.models);
    assert.ok(all.length > 100 && all.every((m: { tool_call: boolean }) => m.tool_call));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
