import assert from "node:assert/strict";
import { join } from "node:path";
import { completeMention } from "./mention_complete.ts";

Deno.test("Tab after @ completes paths: files, folders with a slash, dot files only after a dot", async () => {
  const dir = await Deno.makeTempDir({ prefix: "oi-complete-" });
  try {
    await Deno.writeTextFile(join(dir, "notes.txt"), "");
    await Deno.writeTextFile(join(dir, "new file.txt"), "");
    await Deno.writeTextFile(join(dir, ".env"), "");
    await Deno.mkdir(join(dir, "src"));
    await Deno.writeTextFile(join(dir, "src", "main.py"), "");
    assert.deepEqual(await completeMention("explain @n", dir), [["@notes.txt"], "@n"]);
    assert.deepEqual(await completeMention("@", dir), [["@notes.txt", "@src/"], "@"]);
    assert.deepEqual(await completeMention("look at @src/m", dir), [["@src/main.py"], "@src/m"]);
    assert.deepEqual(await completeMention("@.e", dir), [["@.env"], "@.e"]);
    assert.deepEqual(await completeMention("~/x @~/", dir, dir), [
      ["@~/notes.txt", "@~/src/"],
      "@~/",
    ]);
    // Not after @, an e-mail address, a folder that does not exist: nothing offered.
    assert.deepEqual(await completeMention("explain n", dir), [[], "explain n"]);
    assert.deepEqual(await completeMention("bob@ex", dir), [[], "bob@ex"]);
    assert.deepEqual(await completeMention("@nope/x", dir), [[], "@nope/x"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
