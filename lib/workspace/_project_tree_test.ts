import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { projectTree } from "./_project_tree.ts";

async function tree(files: string[]): Promise<{ root: string } & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_tree_" }));
  for (const file of files) {
    const folder = file.endsWith("/") ? join(root, file) : dirname(join(root, file));
    await Deno.mkdir(folder, { recursive: true });
    if (!file.endsWith("/")) await Deno.writeTextFile(join(root, file), "x");
  }
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("projectTree() draws files before folders, breadth-first, and does not open .git", async () => {
  await using t = await tree([
    "app.py",
    "AGENTS.md",
    ".git/HEAD",
    "src/a.txt",
    "src/deep/b.txt",
    "empty/",
  ]);
  assert.equal(
    await projectTree(t.root),
    [
      `${t.root}/`,
      "├───AGENTS.md",
      "├───app.py",
      "├───.git/...",
      "├───empty/",
      "└───src/",
      "    ├───a.txt",
      "    └───deep/",
      "        └───b.txt",
    ].join("\n"),
  );
});

Deno.test("projectTree() stops at its entry limit and marks the folders not fully shown", async () => {
  await using t = await tree(["a/1", "a/2", "a/3", "b/1", "top.txt"]);
  // top.txt, a/, b/ fill three entries; a's first two fill the rest; b is never opened.
  assert.equal(
    await projectTree(t.root, 5),
    [`${t.root}/`, "├───top.txt", "├───a/...", "│   ├───1", "│   └───2", "└───b/..."].join("\n"),
  );
});
