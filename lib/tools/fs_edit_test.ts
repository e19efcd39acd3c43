import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { fsEdit } from "./fs_edit.ts";
import { fsRead } from "./fs_read.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";

async function rejects(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err) => err instanceof ToolError && message.test(err.message));
}

Deno.test("fsEdit() replaces a unique string and returns a diff", async () => {
  await using ws = await tempWorkspace({ "a.py": "x = 1\ny = 2\n" });
  const out = await fsEdit.run({ path: "a.py", old_string: "y = 2", new_string: "y = 3" }, ws.ctx);
  assert.equal(out.replacements, 1);
  assert.equal(out.path, "a.py");
  assert.equal(out.absolutePath, `${ws.dir}/a.py`);
  assert.equal(out.diff, "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n");
  assert.equal(await ws.read("a.py"), "x = 1\ny = 3\n");
});

Deno.test("fsEdit() applies several edits in order against the evolving text", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a b c\n" });
  const out = await fsEdit.run({
    path: "a.txt",
    edits: [{ old_string: "a", new_string: "x$&" }, { old_string: "x$& b", new_string: "y" }],
  }, ws.ctx);
  assert.equal(out.replacements, 2);
  assert.equal(await ws.read("a.txt"), "y c\n");
});

Deno.test("fsEdit() refuses missing and ambiguous strings unless replace_all", async () => {
  await using ws = await tempWorkspace({ "a.txt": "k k k\n" });
  await rejects(
    fsEdit.run({ path: "a.txt", old_string: "z", new_string: "y" }, ws.ctx),
    /old_string not found/,
  );
  await rejects(
    fsEdit.run({ path: "a.txt", old_string: "k", new_string: "y" }, ws.ctx),
    /occurs 3 times/,
  );
  await rejects(
    fsEdit.run({
      path: "a.txt",
      edits: [{ old_string: "k k", new_string: "q" }, { old_string: "nope", new_string: "" }],
    }, ws.ctx),
    /edits\[1\]\.old_string not found/,
  );
  assert.equal(await ws.read("a.txt"), "k k k\n", "a failed edit changes nothing");
  const out = await fsEdit.run(
    { path: "a.txt", old_string: "k", new_string: "y", replace_all: true },
    ws.ctx,
  );
  assert.equal(out.replacements, 3);
  assert.equal(await ws.read("a.txt"), "y y y\n");
});

Deno.test("fsEdit() keeps CRLF line endings when the strings use LF", async () => {
  await using ws = await tempWorkspace({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
  await fsEdit.run({ path: "w.txt", old_string: "one\ntwo", new_string: "1\n2" }, ws.ctx);
  assert.equal(await ws.read("w.txt"), "1\r\n2\r\nthree\r\n");
});

Deno.test("fsEdit() with require_read needs a read of the unchanged file", async () => {
  await using ws = await tempWorkspace({ "a.txt": "old\n" });
  const edit = { path: "a.txt", old_string: "old", new_string: "new", require_read: true };
  await rejects(
    fsEdit.run(edit, ws.ctx),
    /^File has not been read yet\. Read it first before writing to it\.$/,
  );
  await fsRead.run({ path: "a.txt" }, ws.ctx);
  await Deno.writeTextFile(`${ws.dir}/a.txt`, "old\n");
  await Deno.utime(`${ws.dir}/a.txt`, new Date(), new Date(Date.now() + 5000));
  await rejects(fsEdit.run(edit, ws.ctx), /changed since it was last read/);
  await fsRead.run({ path: "a.txt" }, ws.ctx);
  await fsEdit.run(edit, ws.ctx);
  await fsEdit.run({ ...edit, old_string: "new", new_string: "newer" }, ws.ctx);
  assert.equal(await ws.read("a.txt"), "newer\n");
});

Deno.test("fsEdit() refuses bad input shapes and missing files", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n" });
  await rejects(fsEdit.run({ path: "a.txt", old_string: "a" }, ws.ctx), /missing new_string/);
  await rejects(
    fsEdit.run({ path: "a.txt", old_string: "a", new_string: "a" }, ws.ctx),
    /identical/,
  );
  await rejects(fsEdit.run({ path: "a.txt", old_string: "", new_string: "b" }, ws.ctx), /empty/);
  await rejects(
    fsEdit.run({ path: "b.txt", old_string: "a", new_string: "b" }, ws.ctx),
    /file does not exist/,
  );
});

Deno.test("fsEdit accepts the oldText/newText spelling inside edits[]", async () => {
  await using ws = await tempWorkspace();
  const dir = ws.dir;
  await Deno.writeTextFile(`${dir}/a.txt`, "alpha beta\n");
  const input = fsEdit.input.parse({
    path: "a.txt",
    edits: [{ oldText: "beta", newText: "gamma" }, { old_text: "alpha", new_text: "delta" }],
  });
  const ctx = {
    callId: "test_call",
    progress: () => {},
    cwd: dir,
    signal: new AbortController().signal,
    env: {},
    state: new Map(),
    fs: inProcessFs,
  };
  await fsEdit.run(input, ctx);
  assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "delta gamma\n");
});

Deno.test("fsEdit takes Kimi's edit: one {old, new} object or a list with per-edit replace_all", async () => {
  await using ws = await tempWorkspace({ "a.txt": "k k\nx\n" });
  const one = fsEdit.input.parse({ path: "a.txt", edits: { old: "x", new: "y" } });
  assert.equal((await fsEdit.run(one, ws.ctx)).replacements, 1);
  const many = fsEdit.input.parse({
    path: "a.txt",
    edits: [{ old: "k", new: "m", replace_all: true }, { old: "y", new: "z" }],
  });
  assert.equal((await fsEdit.run(many, ws.ctx)).replacements, 3);
  assert.equal(await ws.read("a.txt"), "m m\nz\n");
  const ambiguous = fsEdit.input.parse({ path: "a.txt", edits: [{ old: "m", new: "n" }] });
  await rejects(fsEdit.run(ambiguous, ws.ctx), /occurs 2 times/);
});
