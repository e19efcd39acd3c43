import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { capabilityById } from "../tools/registry.ts";
import { capabilityFields } from "./_schema_fields.ts";
import { listHarnessIds, loadHarness, SPEC_FILE } from "./load.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));

Deno.test("every harness folder has a spec and loads", async () => {
  const ids = await listHarnessIds({ builtinDir: BUILTIN });
  assert.ok(ids.includes("native"));
  for await (const entry of Deno.readDir(BUILTIN)) {
    // `_shared` holds the default texts every harness takes; it is no harness.
    if (!entry.isDirectory || entry.name === "_shared") continue;
    assert.ok(ids.includes(entry.name), `harnesses/${entry.name} has no ${SPEC_FILE}`);
    await loadHarness(entry.name, { builtinDir: BUILTIN });
  }
});

Deno.test("no harness advertises a tool without a handler", async () => {
  for (const id of await listHarnessIds({ builtinDir: BUILTIN })) {
    const h = await loadHarness(id, { builtinDir: BUILTIN });
    for (const tool of h.tools) {
      const where = `${join("harnesses", id)}: tool "${tool.declaration.name}"`;
      const cap = capabilityById(tool.capability);
      assert.ok(cap, `${where} maps to missing capability "${tool.capability}"`);
      const fields = capabilityFields(cap)!;
      const props = Object.keys(tool.declaration.parameters.properties as object ?? {});
      for (const wire of props) {
        assert.ok(Object.hasOwn(tool.args, wire), `${where}: wire argument "${wire}" is unmapped`);
        const field = tool.args[wire];
        assert.ok(
          field === "" || fields.has(field),
          `${where}: "${wire}" → unknown field "${field}"`,
        );
      }
      for (const wire of Object.keys(tool.args)) {
        assert.ok(props.includes(wire), `${where}: maps undeclared argument "${wire}"`);
      }
      const reachable = new Set([...Object.values(tool.args), ...Object.keys(tool.fixedArgs)]);
      for (const [name, field] of fields) {
        if (field.required) {
          assert.ok(reachable.has(name), `${where}: required "${name}" unreachable`);
        }
      }
    }
  }
});
