import assert from "node:assert/strict";
import { join } from "node:path";
import { harnessDataHash } from "./data_hash.ts";

Deno.test("a harness's data hash changes with any of its files or the shared texts, and only then", async () => {
  const root = await Deno.makeTempDir({ prefix: "oi-hash-" });
  try {
    const dir = join(root, "demo");
    await Deno.mkdir(join(dir, "prompts"), { recursive: true });
    await Deno.mkdir(join(root, "_shared"));
    await Deno.writeTextFile(join(dir, "harness.toml"), 'id = "demo"\n');
    await Deno.writeTextFile(join(dir, "prompts", "system.md"), "Be brief.\n");
    await Deno.writeTextFile(join(root, "_shared", "errors.md"), "Oops.\n");
    const first = await harnessDataHash(dir);
    assert.match(first ?? "", /^[0-9a-f]{64}$/);
    assert.equal(await harnessDataHash(dir), first);
    await Deno.writeTextFile(join(dir, "prompts", "system.md"), "Be brief!\n");
    const second = await harnessDataHash(dir);
    assert.notEqual(second, first);
    await Deno.writeTextFile(join(root, "_shared", "errors.md"), "Oops!\n");
    assert.notEqual(await harnessDataHash(dir), second);
    assert.equal(await harnessDataHash(join(root, "missing")), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
