import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { fsList, MAX_LIST_ENTRIES } from "./fs_list.ts";
import { tempWorkspace } from "./_test_workspace.ts";

const FILES = {
  "b.txt": "bb",
  "A.md": "a",
  "a.txt": "a",
  ".env": "SECRET=1",
  "src/main.ts": "main",
  "src/lib/deep.ts": "deep",
  "Docs/guide.md": "guide",
  "node_modules/x/index.js": "x",
  ".git/config": "[core]",
  "build/out.js": "out",
};

Deno.test("fsList() lists one level, folders first, then names ignoring case", async () => {
  await using ws = await tempWorkspace(FILES);
  const out = await fsList.run({}, ws.ctx);
  assert.equal(out.root, ".");
  assert.equal(out.truncated, false);
  assert.deepEqual(out.entries, [
    { path: "build", kind: "dir", size: null },
    { path: "Docs", kind: "dir", size: null },
    { path: "src", kind: "dir", size: null },
    { path: "A.md", kind: "file", size: 1 },
    { path: "a.txt", kind: "file", size: 1 },
    { path: "b.txt", kind: "file", size: 2 },
  ]);
});

Deno.test("fsList() descends to the given depth in tree order", async () => {
  await using ws = await tempWorkspace(FILES);
  const out = await fsList.run({ path: "src", depth: 2 }, ws.ctx);
  assert.equal(out.root, "src");
  assert.deepEqual(out.entries.map((e) => e.path), ["lib", "lib/deep.ts", "main.ts"]);
  const all = await fsList.run({ depth: 3 }, ws.ctx);
  assert.deepEqual(all.entries.map((e) => e.path), [
    "build",
    "build/out.js",
    "Docs",
    "Docs/guide.md",
    "src",
    "src/lib",
    "src/lib/deep.ts",
    "src/main.ts",
    "A.md",
    "a.txt",
    "b.txt",
  ]);
});

Deno.test("fsList() shows hidden entries on request but never .git or node_modules", async () => {
  await using ws = await tempWorkspace(FILES);
  const out = await fsList.run({ show_hidden: true, depth: 2 }, ws.ctx);
  const paths = out.entries.map((e) => e.path);
  assert.ok(paths.includes(".env"));
  assert.ok(!paths.some((p) => p.startsWith(".git") || p.startsWith("node_modules")));
  const inside = await fsList.run({ path: "node_modules" }, ws.ctx);
  assert.deepEqual(inside.entries.map((e) => e.path), ["x"]);
});

Deno.test("fsList() leaves out entries matching ignore globs", async () => {
  await using ws = await tempWorkspace(FILES);
  const out = await fsList.run({ ignore: ["*.txt", "build/", "src/lib"], depth: 3 }, ws.ctx);
  assert.deepEqual(out.entries.map((e) => e.path), [
    "Docs",
    "Docs/guide.md",
    "src",
    "src/main.ts",
    "A.md",
  ]);
});

Deno.test({
  name: "fsList() reports symlinks without following them",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using ws = await tempWorkspace({ "real/f.txt": "f" });
    await Deno.symlink(join(ws.dir, "real"), join(ws.dir, "link"));
    const out = await fsList.run({ depth: 2 }, ws.ctx);
    assert.deepEqual(out.entries, [
      { path: "real", kind: "dir", size: null },
      { path: "real/f.txt", kind: "file", size: 1 },
      { path: "link", kind: "symlink", size: null },
    ]);
  },
});

Deno.test("fsList() caps the entries and says it truncated", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < MAX_LIST_ENTRIES + 5; i++) files[`f${String(i).padStart(4, "0")}`] = "";
  await using ws = await tempWorkspace(files);
  const out = await fsList.run({}, ws.ctx);
  assert.equal(out.entries.length, MAX_LIST_ENTRIES);
  assert.equal(out.truncated, true);
  assert.equal(out.entries[0].path, "f0000");
});

Deno.test("fsList() throws ToolError for a missing folder or a file", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a" });
  await assert.rejects(
    () => fsList.run({ path: "nope" }, ws.ctx),
    (err) => err instanceof ToolError && /"nope": folder does not exist/.test(err.message),
  );
  await assert.rejects(
    () => fsList.run({ path: "a.txt" }, ws.ctx),
    (err) => err instanceof ToolError && /"a.txt": it is not a folder/.test(err.message),
  );
});

Deno.test("fsList input rejects a depth below 1", () => {
  assert.equal(fsList.input.safeParse({ depth: 0 }).success, false);
  assert.equal(fsList.input.safeParse({ depth: 2, ignore: ["*.log"] }).success, true);
});
