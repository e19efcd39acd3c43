import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type * as z from "zod";
import { COMMAND_CAPABILITIES, COMMAND_FIELDS, commandOf, commandSubject } from "./policy.ts";
import { capabilityById } from "../tools/registry.ts";
import { listHarnessIds, loadHarness } from "../harness/load.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses", import.meta.url));

function fieldsOf(capability: string): string[] {
  const input = capabilityById(capability)?.input as z.ZodObject | undefined;
  assert.ok(input?.shape, `capability ${capability} has an object input`);
  return Object.keys(input.shape);
}

Deno.test("COMMAND_FIELDS classifies every input field of every command capability", () => {
  for (const capability of COMMAND_CAPABILITIES) {
    for (const field of fieldsOf(capability)) {
      assert.ok(field in COMMAND_FIELDS, `${capability}.${field} is not in COMMAND_FIELDS`);
    }
  }
});

Deno.test("commandSubject() changes with every field that decides what runs", () => {
  const base = { command: "npm test" };
  const changed: Record<string, unknown> = { command: "npm t", shell: "x", login: true, cwd: "d" };
  const runs = Object.keys(COMMAND_FIELDS).filter((f) => COMMAND_FIELDS[f] === "runs");
  assert.deepEqual(runs.sort(), Object.keys(changed).sort());
  for (const field of runs) {
    const other = commandSubject(commandOf({ ...base, [field]: changed[field] }));
    assert.notEqual(other, commandSubject(commandOf(base)), field);
  }
});

Deno.test("every harness tool that runs commands maps only onto classified fields", async () => {
  const dirs = { builtinDir: BUILTIN };
  let seen = 0;
  for (const id of await listHarnessIds(dirs)) {
    const harness = await loadHarness(id, dirs);
    const tools = harness.tools.flatMap((t) => t.route ? [t, t.route.tool] : [t]);
    for (const tool of tools.filter((t) => COMMAND_CAPABILITIES.has(t.capability))) {
      seen++;
      const fields = [...Object.values(tool.args), ...Object.keys(tool.fixedArgs)];
      for (const field of fields.filter((f) => f !== "")) {
        assert.ok(field in COMMAND_FIELDS, `${id} ${tool.declaration.name}: ${field}`);
      }
    }
  }
  assert.ok(seen > 10, `found ${seen} command tools`);
});
