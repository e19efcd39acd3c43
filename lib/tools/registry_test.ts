import assert from "node:assert/strict";
import { CAPABILITIES, capabilityById } from "./registry.ts";

Deno.test("capabilityById() finds each registered capability and nothing else", () => {
  for (const cap of CAPABILITIES) assert.equal(capabilityById(cap.id), cap);
  assert.equal(capabilityById("no.such"), undefined);
});

Deno.test("CAPABILITIES has unique, dotted ids", () => {
  const ids = CAPABILITIES.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[a-z]+\.[a-z_]+$/);
  assert.deepEqual([...ids].sort(), [
    "fs.apply_patch",
    "fs.edit",
    "fs.glob",
    "fs.grep",
    "fs.read",
    "fs.write",
    "plan.update",
    "shell.run",
  ]);
});
