import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listHarnessIds, loadHarness } from "../lib/harness/load.ts";
import { sentTools, wireTools } from "./_wire_tools.ts";

/**
 * Golden files: the `tools` array each provider adapter sends for each harness, exactly as it
 * goes on the wire, in `tests/golden/<harness>/<wire>.tools.json`. A harness with deferred
 * tools also has `<wire>.deferred.tools.json`: the array once every deferred tool is loaded.
 * `UPDATE_GOLDEN=1` rewrites the files.
 */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const GOLDEN = fileURLToPath(new URL("./golden/", import.meta.url));
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

async function checkGolden(file: string, value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = join(GOLDEN, file);
  if (UPDATE) {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
    return;
  }
  let golden: string;
  try {
    golden = await Deno.readTextFile(path);
  } catch {
    assert.fail(
      `Golden file "tests/golden/${file}" is missing: run with UPDATE_GOLDEN=1 to create it`,
    );
  }
  assert.equal(
    text,
    golden,
    `tests/golden/${file} is out of date: check the change, then run with UPDATE_GOLDEN=1`,
  );
}

for (const id of await listHarnessIds({ builtinDir: HARNESSES })) {
  Deno.test(`harness ${id} sends the tools in tests/golden/${id}`, async () => {
    const h = await loadHarness(id, { builtinDir: HARNESSES });
    const deferred = h.tools.some((t) => t.deferred);
    for (const wire of h.wireApis) {
      await checkGolden(`${id}/${wire}.tools.json`, wireTools(wire, sentTools(h)));
      if (deferred) {
        await checkGolden(
          `${id}/${wire}.deferred.tools.json`,
          wireTools(wire, sentTools(h, { loadAll: true })),
        );
      }
    }
  });
}

Deno.test("every golden folder belongs to a harness", async () => {
  const ids = await listHarnessIds({ builtinDir: HARNESSES });
  const entries = await Array.fromAsync(Deno.readDir(GOLDEN)).catch(() => []);
  for (const entry of entries) {
    // `eval/` holds the eval report's goldens, not a harness's.
    if (!entry.isDirectory || entry.name === "eval") continue;
    assert.ok(
      ids.includes(entry.name),
      `tests/golden/${entry.name} has no harness: delete it or restore harnesses/${entry.name}`,
    );
  }
});
