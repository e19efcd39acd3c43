import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { treeWorkspace } from "./_test_tree.ts";
import { fsGrep, type FsGrepInput, grepFiles } from "./fs_grep.ts";

const hasRg = await new Deno.Command("rg", { args: ["--version"] }).output()
  .then((o) => o.success, () => false);

const CASES: FsGrepInput[] = [
  { pattern: "TODO" },
  { pattern: "todo", case_insensitive: true },
  { pattern: "TODO", output_mode: "content" },
  { pattern: "todo", output_mode: "content", case_insensitive: true, context: 1 },
  { pattern: "TODO", output_mode: "count" },
  { pattern: "TODO", glob: "*.ts", output_mode: "content" },
  { pattern: "^export", path: "src", output_mode: "content", context: 2 },
  { pattern: "TODO", output_mode: "content", head_limit: 2 },
  { pattern: "crlf$", output_mode: "content" },
  { pattern: "a\\s+b", output_mode: "content" },
];

Deno.test("grepFiles() gives the same results with rg and with the JS search", {
  ignore: !hasRg,
}, async () => {
  await using ws = await treeWorkspace();
  for (const input of CASES) {
    const rg = await grepFiles(input, ws.ctx, "rg");
    const js = await grepFiles(input, ws.ctx, "js");
    assert.deepEqual(js, rg, JSON.stringify(input));
  }
});

Deno.test("fsGrep() lists files with matches, skipping ignored, hidden and binary files", async () => {
  await using ws = await treeWorkspace();
  const out = await fsGrep.run({ pattern: "TODO" }, ws.ctx);
  assert.deepEqual(out.files, [
    "README.md",
    "docs/a b.md",
    "docs/crlf.txt",
    "src/lib/deep.ts",
    "src/main.ts",
  ]);
  assert.deepEqual(out.lines, []);
  assert.equal(out.truncated, false);
});

Deno.test("fsGrep() returns content lines with context and counts", async () => {
  await using ws = await treeWorkspace();
  const content = await fsGrep.run(
    { pattern: "tidy", output_mode: "content", context: 1, path: "src" },
    ws.ctx,
  );
  assert.equal(content.root, "src");
  assert.deepEqual(content.lines, [
    { path: "main.ts", line: 1, text: "export const a = 1;", match: false },
    { path: "main.ts", line: 2, text: "// TODO: tidy", match: true },
    { path: "main.ts", line: 3, text: "console.log(a);", match: false },
  ]);
  const count = await fsGrep.run({ pattern: "o", output_mode: "count", glob: "*.md" }, ws.ctx);
  assert.deepEqual(count.counts, [{ path: "README.md", count: 1 }]);
  const kimi = await fsGrep.run(
    { pattern: "o", output_mode: "count_matches", glob: "*.md" },
    ws.ctx,
  );
  assert.deepEqual([kimi.mode, kimi.counts], ["count", count.counts]);
  const head = await fsGrep.run({ pattern: "TODO", head_limit: 2 }, ws.ctx);
  assert.deepEqual(head.files, ["README.md", "docs/a b.md"]);
  assert.equal(head.truncated, true);
});

Deno.test("grepFiles() reports a bad regular expression as a ToolError on both engines", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  const engines = hasRg ? ["rg", "js"] as const : ["js"] as const;
  for (const engine of engines) {
    await assert.rejects(
      grepFiles({ pattern: "(" }, ws.ctx, engine),
      (e) => e instanceof ToolError && /Cannot search for "\("/.test(e.message),
    );
  }
});
