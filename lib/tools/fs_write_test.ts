import assert from "node:assert/strict";
import { join } from "node:path";
import { tempWorkspace } from "./_test_workspace.ts";
import { readRecordOf } from "./_read_records.ts";
import { fsWrite } from "./fs_write.ts";

Deno.test("fsWrite() creates a file and its parent folders", async () => {
  await using ws = await tempWorkspace();
  const out = await fsWrite.run({ path: "a/b/c.txt", content: "héllo\n" }, ws.ctx);
  assert.equal(out.path, "a/b/c.txt");
  assert.equal(out.bytes, 7);
  assert.equal(out.created, true);
  assert.match(out.diff, /^--- \/dev\/null\n\+\+\+ a\/b\/c\.txt\n@@ -0,0 \+1,1 @@\n\+héllo\n$/);
  assert.equal(await ws.read("a/b/c.txt"), "héllo\n");
  assert.ok(readRecordOf(ws.ctx, join(ws.dir, "a/b/c.txt")));
});

Deno.test("fsWrite() replaces a file, keeps its mode and leaves no temp file", async () => {
  await using ws = await tempWorkspace({ "run.sh": "echo 1\n" });
  await Deno.chmod(join(ws.dir, "run.sh"), 0o755);
  const out = await fsWrite.run({ path: "run.sh", content: "echo 2\n" }, ws.ctx);
  assert.equal(out.created, false);
  assert.match(out.diff, /-echo 1\n\+echo 2\n/);
  assert.equal((await Deno.stat(join(ws.dir, "run.sh"))).mode! & 0o777, 0o755);
  const names = [];
  for await (const e of Deno.readDir(ws.dir)) names.push(e.name);
  assert.deepEqual(names, ["run.sh"]);
});

Deno.test("fsWrite() appends to a file, or creates it, in append mode", async () => {
  await using ws = await tempWorkspace({ "log.txt": "one\n" });
  const out = await fsWrite.run({ path: "log.txt", content: "two\n", mode: "append" }, ws.ctx);
  assert.equal(await ws.read("log.txt"), "one\ntwo\n");
  assert.deepEqual([out.bytes, out.created, out.absolutePath], [4, false, join(ws.dir, "log.txt")]);
  assert.match(out.diff, / one\n\+two\n$/);
  const fresh = await fsWrite.run({ path: "new.txt", content: "x", mode: "append" }, ws.ctx);
  assert.equal(fresh.created, true);
  assert.equal(await ws.read("new.txt"), "x");
});

Deno.test("fsWrite() writes a file of 300,000 lines and returns its diff", async () => {
  await using ws = await tempWorkspace({ "big.txt": "old\n" });
  const lines = 300_000;
  const content = "1234567\n".repeat(lines);
  const out = await fsWrite.run({ path: "big.txt", content }, ws.ctx);
  assert.equal(out.bytes, content.length);
  assert.equal((await Deno.stat(join(ws.dir, "big.txt"))).size, content.length);
  const head = `--- big.txt\n+++ big.txt\n@@ -1,1 +1,${lines} @@\n-old\n`;
  assert.ok(out.diff === head + "+1234567\n".repeat(lines), "the whole diff, line by line");
});
