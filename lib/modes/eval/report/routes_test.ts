import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRecord } from "./_test_records.ts";
import { learnedRoutes, renderRoutes, withRoutes, writeRoutes } from "./routes.ts";

/** `n` runs of `harness` on `model`, `passes` of them passing. */
function runs(harness: string, model: string, n: number, passes: number) {
  return Array.from(
    { length: n },
    (_, i) => makeRecord({ harness, model, attempt: i + 1, passed: i < passes }),
  );
}

Deno.test("learnedRoutes keeps a model's harness only when its interval is apart from every other", () => {
  const records = [
    ...runs("minimal", "m1", 5, 5),
    ...runs("native", "m1", 5, 0),
    ...runs("minimal", "m2", 3, 3), // three runs each: the intervals overlap
    ...runs("native", "m2", 3, 0),
    ...runs("native", "m3", 5, 5), // one harness: nothing to choose between
  ];
  const routes = learnedRoutes(records);
  assert.deepEqual(routes.map((r) => [r.model, r.harness]), [["m1", "minimal"]]);
  assert.deepEqual(renderRoutes(routes).slice(1), [
    "  m1: minimal 100% over native 0%",
    "Lines for config.toml (eval report --write-routes adds them):",
    "  [harness_routes]",
    '  "m1" = "minimal"',
  ]);
  assert.match(renderRoutes([])[0], /^No harness route/);
});

Deno.test("withRoutes edits [harness_routes] in place: a model's line replaced, new ones after its keys", () => {
  const [route] = learnedRoutes([...runs("pi", "m1", 5, 5), ...runs("native", "m1", 5, 0)]);
  const other = { ...route, model: "gpt-5*", harness: "native" };
  const text = [
    "# top comment",
    'model = "m1"',
    "",
    "[harness_routes] # learned",
    '"m1" = "minimal" # old',
    "# keep me",
    "",
    "[profiles.x]",
    'model = "y"',
  ].join("\n");
  assert.equal(
    withRoutes(text, [route, other]),
    [
      "# top comment",
      'model = "m1"',
      "",
      "[harness_routes] # learned",
      '"m1" = "pi"',
      '"gpt-5*" = "native"',
      "# keep me",
      "",
      "[profiles.x]",
      'model = "y"',
    ].join("\n"),
  );
  assert.equal(
    withRoutes('model = "m1"\n', [route]),
    'model = "m1"\n\n[harness_routes]\n"m1" = "pi"\n',
  );
});

Deno.test("writeRoutes creates config.toml, and refuses a file that is not TOML, leaving it as it was", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const [route] = learnedRoutes([...runs("pi", "m1", 5, 5), ...runs("native", "m1", 5, 0)]);
    const file = join(dir, "config.toml");
    assert.match(await writeRoutes(file, [route]), /Wrote 1 route/);
    assert.equal(await Deno.readTextFile(file), '[harness_routes]\n"m1" = "pi"\n');
    await Deno.writeTextFile(file, "model = \n");
    await assert.rejects(writeRoutes(file, [route]), /not valid TOML/);
    assert.equal(await Deno.readTextFile(file), "model = \n");
    assert.match(await writeRoutes(file, []), /Nothing written/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
