import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { treeWorkspace } from "./_test_tree.ts";
import { fsGlob, globFiles } from "./fs_glob.ts";
import { need } from "../../sandbox/_test_requires.ts";
import { startFsHelper } from "../../sandbox/fs_helper_client.ts";

const RG = await need("rg");

Deno.test("walkFiles() and rg --files list the same files for every pattern" + RG.note, {
  ignore: RG.ignore,
}, async () => {
  await using ws = await treeWorkspace();
  const patterns = ["*", "**/*.ts", "*.ts", "src/*", "src/**", "**/*.{ts,tsx}", "*.md", "d?cs/*"];
  // rg narrows by the last segment for most of these; hidden and ignored names must stay out.
  const named = ["*.log", ".hidden.ts", "**/.*", "src/*.{ts,tsx}", "*.{ts,md}", "m?in.ts", "a b*"];
  const other = ["src/lib/*.ts", "[a-m]*.ts", "**/lib/**", "@(main).ts", "src/**.ts", "*.gen.ts"];
  for (const pattern of [...patterns, ...named, ...other]) {
    const rg = await globFiles({ pattern }, ws.ctx, "rg");
    const js = await globFiles({ pattern }, ws.ctx, "js");
    assert.deepEqual(js, rg, `pattern ${pattern}`);
  }
  const sub = await globFiles({ pattern: "*.ts", path: "src" }, ws.ctx, "js");
  assert.deepEqual(sub, await globFiles({ pattern: "*.ts", path: "src" }, ws.ctx, "rg"));
});

Deno.test("fsGlob() honors .gitignore at each level and sorts newest first", async () => {
  await using ws = await treeWorkspace();
  const all = await fsGlob.run({ pattern: "*" }, ws.ctx);
  assert.equal(all.root, ".");
  assert.equal(all.truncated, false);
  assert.deepEqual(all.files, [
    "src/blob.bin",
    "docs/crlf.txt",
    "docs/a b.md",
    "src/lib/deep.ts",
    "src/top.txt",
    "src/util.tsx",
    "src/main.ts",
    "README.md",
    "keep.log",
  ]);
  const ts = await fsGlob.run({ pattern: "**/*.{ts,tsx}", path: "src" }, ws.ctx);
  assert.equal(ts.root, "src");
  assert.deepEqual(ts.files, ["lib/deep.ts", "util.tsx", "main.ts"]);
});

Deno.test("fsGlob() caps results at 1000 and flags truncation", async () => {
  await using ws = await tempWorkspace();
  for (let i = 0; i < 1005; i++) await Deno.writeTextFile(join(ws.dir, `f${i}.txt`), "");
  const out = await fsGlob.run({ pattern: "*.txt" }, ws.ctx);
  assert.equal(out.files.length, 1000);
  assert.equal(out.truncated, true);
});

Deno.test("fsGlob() refuses a missing folder", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    fsGlob.run({ pattern: "*", path: "nope" }, ws.ctx),
    (e) => e instanceof ToolError && /folder does not exist/.test(e.message),
  );
});

/** Writes `count` empty files, 100 to a folder. */
async function manyFiles(dir: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 100) {
    const folder = join(dir, `d${start / 100}`);
    await Deno.mkdir(folder);
    await Promise.all(
      Array.from(
        { length: Math.min(100, count - start) },
        (_, i) => Deno.writeTextFile(join(folder, `f${start + i}.txt`), ""),
      ),
    );
  }
}

Deno.test("a long glob reports how many files it looked at and sorted as it goes", async () => {
  await using ws = await tempWorkspace();
  await manyFiles(ws.dir, 2500);
  const out = await globFiles({ pattern: "d1/*.txt" }, ws.ctx, "js");
  assert.equal(out.files.length, 100);
  assert.deepEqual(ws.progress, [{ stream: "status", text: "looked at 2000 files\n" }]);

  ws.progress.length = 0;
  assert.equal((await globFiles({ pattern: "*.txt" }, ws.ctx, "js")).files.length, 1000);
  assert.deepEqual(ws.progress, [
    { stream: "status", text: "looked at 2000 files\n" },
    { stream: "status", text: "sorting by time: 2000 of 2500 files\n" },
  ]);
  if (RG.ok) {
    // ripgrep lists the files itself; ordering them by time is still reported.
    ws.progress.length = 0;
    await globFiles({ pattern: "*.txt" }, ws.ctx, "rg");
    assert.deepEqual(ws.progress, [
      { stream: "status", text: "sorting by time: 2000 of 2500 files\n" },
    ]);
  }

  await using small = await tempWorkspace();
  await manyFiles(small.dir, 1999);
  await globFiles({ pattern: "*.txt" }, small.ctx, "js");
  assert.deepEqual(small.progress, []);
});

Deno.test("the file helper gives many files' times in one call; a file it cannot stat counts as oldest", async () => {
  await using ws = await tempWorkspace({ "old.txt": "", "new.txt": "", "mid.txt": "" });
  const at = (s: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, s));
  await Deno.utime(join(ws.dir, "old.txt"), at(1), at(1));
  await Deno.utime(join(ws.dir, "mid.txt"), at(2), at(2));
  await Deno.utime(join(ws.dir, "new.txt"), at(3), at(3));
  await using fs = await startFsHelper({
    policy: {
      mode: "workspace-write",
      writableRoots: [ws.dir],
      protectedNames: [],
      networkAccess: false,
      privateTmp: false,
    },
  });
  const paths = ["new.txt", "gone.txt", "old.txt"].map((f) => join(ws.dir, f));
  assert.deepEqual(await fs.mtimes(paths), [at(3).getTime(), null, at(1).getTime()]);
  const out = await globFiles({ pattern: "*.txt" }, { ...ws.ctx, fs }, "js");
  assert.deepEqual(out.files, ["new.txt", "mid.txt", "old.txt"]);
});
