import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { treeWorkspace } from "./_test_tree.ts";
import { fsGrep, type FsGrepInput, grepFiles } from "./fs_grep.ts";
import { need } from "../../sandbox/_test_requires.ts";

const RG = await need("rg");

const CASES: FsGrepInput[] = [
  { pattern: "TODO" },
  { pattern: "todo", case_insensitive: true },
  { pattern: "TODO", output_mode: "content" },
  { pattern: "todo", output_mode: "content", case_insensitive: true, context: 1 },
  { pattern: "TODO", output_mode: "count" },
  { pattern: "TODO", glob: "*.ts", output_mode: "content" },
  { pattern: "^export", path: "src", output_mode: "content", context: 2 },
  { pattern: "TODO", output_mode: "content", head_limit: 2 },
  { pattern: "TODO", head_limit: 3 },
  { pattern: "TODO", output_mode: "count", head_limit: 2 },
  { pattern: "TODO", output_mode: "content", context: 1, head_limit: 4 },
  { pattern: "o", output_mode: "content", head_limit: 1 },
  { pattern: "crlf$", output_mode: "content" },
  { pattern: "a\\s+b", output_mode: "content" },
];

Deno.test("grepFiles() gives the same results with rg and with the JS search" + RG.note, {
  ignore: RG.ignore,
}, async () => {
  await using ws = await treeWorkspace();
  for (const input of CASES) {
    const rg = await grepFiles(input, ws.ctx, "rg");
    const js = await grepFiles(input, ws.ctx, "js");
    assert.deepEqual(js, rg, JSON.stringify(input));
  }
});

/** Names whose paths sort differently from their folders' listings, and lines to spare. */
const ORDER_TREE: Record<string, string> = {
  "p.ts": "hit 1\nmiss\nhit 2\n",
  "p/a.ts": "hit\n",
  "p/b/c.ts": "miss\nhit\nmiss\nhit\n",
  "p-q.ts": "hit\n",
  "p.d/x.ts": "hit\nhit\nhit\n",
  "P.ts": "hit\n",
  "pa/\u00e9.ts": "hit\n",
  ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/f${i}.txt`, "x\nhit\nx\n"])),
};

Deno.test("grepFiles() gives the same results with rg and JS for every mode and limit" + RG.note, {
  ignore: RG.ignore,
}, async () => {
  await using ws = await tempWorkspace(ORDER_TREE);
  const modes = ["files_with_matches", "count", "content"] as const;
  for (const output_mode of modes) {
    for (const head_limit of [1, 2, 3, 5, 8, 31, 100]) {
      for (const context of output_mode === "content" ? [0, 1] : [0]) {
        const input = { pattern: "hit", output_mode, head_limit, context };
        const rg = await grepFiles(input, ws.ctx, "rg");
        assert.deepEqual(await grepFiles(input, ws.ctx, "js"), rg, JSON.stringify(input));
      }
    }
  }
  const first = await grepFiles({ pattern: "hit", head_limit: 5 }, ws.ctx, "rg");
  assert.deepEqual(first.files, [
    "P.ts",
    "many/f0.txt",
    "many/f1.txt",
    "many/f10.txt",
    "many/f11.txt",
  ]);
  const last = await grepFiles({ pattern: "hit", path: "." }, ws.ctx, "rg");
  assert.deepEqual(last.files.slice(-6), [
    "p-q.ts",
    "p.d/x.ts",
    "p.ts",
    "p/a.ts",
    "p/b/c.ts",
    "pa/\u00e9.ts",
  ]);
});

Deno.test("grepFiles() with the JS search stops reading files once the limit is reached", async () => {
  const files = Object.fromEntries(
    Array.from({ length: 200 }, (_, i) => [`f${1000 + i}.txt`, "hit\n"]),
  );
  await using ws = await tempWorkspace(files);
  for (const output_mode of ["files_with_matches", "count", "content"] as const) {
    let reads = 0;
    const fs = {
      ...inProcessFs,
      readFile: (...a: Parameters<typeof inProcessFs.readFile>) => {
        reads++;
        return inProcessFs.readFile(...a);
      },
    };
    const out = await grepFiles(
      { pattern: "hit", output_mode, head_limit: 5 },
      { ...ws.ctx, fs },
      "js",
    );
    assert.deepEqual(out.files, ["f1000.txt", "f1001.txt", "f1002.txt", "f1003.txt", "f1004.txt"]);
    assert.equal(out.truncated, true);
    assert.ok(reads < 40, `${output_mode}: ${reads} files read for 5 results`);
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
  const engines = RG.ok ? ["rg", "js"] as const : ["js"] as const;
  for (const engine of engines) {
    await assert.rejects(
      grepFiles({ pattern: "(" }, ws.ctx, engine),
      (e) => e instanceof ToolError && /Cannot search for "\("/.test(e.message),
    );
  }
});

/** Writes `count` small files, 100 to a folder, the last one holding "needle". */
async function manyFiles(dir: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 100) {
    const folder = `${dir}/d${String(start / 100).padStart(3, "0")}`;
    await Deno.mkdir(folder);
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, (_, i) => {
        const n = start + i;
        return Deno.writeTextFile(`${folder}/f${n}.txt`, n === count - 1 ? "needle\n" : "hay\n");
      }),
    );
  }
}

Deno.test("a long JS search reports how many files it looked at as it goes; a short one does not", async () => {
  await using ws = await tempWorkspace();
  await manyFiles(ws.dir, 4100);
  const out = await grepFiles({ pattern: "needle" }, ws.ctx, "js");
  assert.deepEqual(out.files, ["d040/f4099.txt"]);
  assert.deepEqual(ws.progress, [
    { stream: "status", text: "looked at 2000 files\n" },
    { stream: "status", text: "looked at 4000 files\n" },
  ]);
  // Files a glob leaves out are looked at too: the walk is as long.
  ws.progress.length = 0;
  await grepFiles({ pattern: "needle", glob: "f4099.*" }, ws.ctx, "js");
  assert.equal(ws.progress.length, 2);

  await using small = await tempWorkspace();
  await manyFiles(small.dir, 1999);
  assert.equal((await grepFiles({ pattern: "needle" }, small.ctx, "js")).files.length, 1);
  assert.deepEqual(small.progress, []);
});
