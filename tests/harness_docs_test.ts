import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { parse as parseToml } from "smol-toml";
import { listHarnessIds } from "../lib/harness/load.ts";
import {
  generatedFiles,
  replaceSection,
  SCHEMA_PATH,
  staleFiles,
} from "../scripts/gen_harness_docs.ts";

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

Deno.test("harnesses/README.md and harness.schema.json are what the code generates", async () => {
  const stale = await staleFiles();
  assert.deepEqual(
    stale,
    [],
    `${stale.join(" and ")} out of date: run \`deno task docs\` and commit the result`,
  );
});

Deno.test("the generated reference names every capability and the smallest harness's files", async () => {
  const [readme] = await generatedFiles();
  for (const id of ["shell.run", "fs.edit", "web.fetch", "user.ask"]) {
    assert.match(readme.text, new RegExp(`^### \`${id.replace(".", "\\.")}\`$`, "m"));
  }
  assert.match(readme.text, /^- `string_not_found`: `\{path\}` `\{absolute_path\}`/m);
  assert.match(readme.text, /^`smallest\/tools\/run\.json`:$/m);
  assert.throws(() => replaceSection("no markers here", "capabilities", "x"), /Cannot find/);
});

Deno.test("harness.schema.json accepts every built-in harness.toml and rejects a misspelt key", async () => {
  const validate = new Ajv({ strict: false }).compile(
    JSON.parse(await Deno.readTextFile(SCHEMA_PATH)),
  );
  const ids = await listHarnessIds({ builtinDir: HARNESSES });
  assert.ok(ids.length >= 10);
  for (const id of ids) {
    const spec = parseToml(await Deno.readTextFile(join(HARNESSES, id, "harness.toml")));
    assert.ok(validate(spec), `${id}: ${JSON.stringify(validate.errors)}`);
  }
  const smallest = fileURLToPath(
    new URL("./fixtures/harnesses/smallest/harness.toml", import.meta.url),
  );
  const spec = parseToml(await Deno.readTextFile(smallest));
  assert.ok(validate(spec), JSON.stringify(validate.errors));
  assert.equal(validate({ ...spec, lable: "typo" }), false);
  assert.equal(validate({ ...spec, prompts: { compaction: "c.md" } }), true);
  assert.equal(validate({ ...spec, prompts: { compact: "c.md" } }), false);
});
