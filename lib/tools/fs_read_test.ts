import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { readRecordOf } from "./_read_records.ts";
import { fsRead, MAX_LINE_CHARS, MAX_READ_BYTES } from "./fs_read.ts";

Deno.test("fsRead() returns the requested window of lines", async () => {
  await using ws = await tempWorkspace({ "a.txt": "one\ntwo\nthree\n" });
  const out = await fsRead.run({ path: "a.txt", offset: 2, limit: 1 }, ws.ctx);
  assert.deepEqual(out, {
    path: "a.txt",
    absolutePath: `${ws.ctx.cwd}/a.txt`,
    lines: ["two"],
    startLine: 2,
    totalLines: 3,
    endOfFile: false,
    truncated: false,
    unchanged: false,
    offset: 2,
    limit: 1,
  });
});

Deno.test("fsRead() counts a negative offset from the end of the file", async () => {
  await using ws = await tempWorkspace({ "a.txt": "one\ntwo\nthree\nfour\n" });
  const tail = await fsRead.run({ path: "a.txt", offset: -2 }, ws.ctx);
  assert.deepEqual([tail.lines, tail.startLine, tail.endOfFile], [["three", "four"], 3, true]);
  const window = await fsRead.run({ path: "a.txt", offset: -3, limit: 1 }, ws.ctx);
  assert.deepEqual([window.lines, window.startLine], [["two"], 2]);
  const all = await fsRead.run({ path: "a.txt", offset: -10 }, ws.ctx);
  assert.deepEqual([all.lines.length, all.startLine], [4, 1]);
});

Deno.test("fsRead() reads the whole file, strips CR and counts a last line without newline", async () => {
  await using ws = await tempWorkspace({ "a.txt": "one\r\ntwo\r\nthree" });
  const out = await fsRead.run({ path: "a.txt", offset: 0 }, ws.ctx);
  assert.deepEqual(out.lines, ["one", "two", "three"]);
  assert.equal(out.startLine, 1);
  assert.equal(out.totalLines, 3);
  assert.equal(out.endOfFile, true);
});

Deno.test("fsRead() records the read with the file's mtime and size", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  await fsRead.run({ path: "a.txt" }, ws.ctx);
  const abs = join(ws.dir, "a.txt");
  const mtime = (await Deno.stat(abs)).mtime!.getTime();
  assert.deepEqual(readRecordOf(ws.ctx, abs), { mtimeMs: mtime, size: 2, whole: true });
});

Deno.test("fsRead() cuts long lines and defaults to 2000 lines", async () => {
  const many = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n");
  await using ws = await tempWorkspace({ "long.txt": "y".repeat(5000), "many.txt": many });
  const long = await fsRead.run({ path: "long.txt" }, ws.ctx);
  assert.equal(long.truncated, true);
  assert.ok(long.lines[0].startsWith("y".repeat(MAX_LINE_CHARS) + "…"));
  const out = await fsRead.run({ path: "many.txt" }, ws.ctx);
  assert.equal(out.lines.length, 2000);
  assert.equal(out.lines.at(-1), "l2000");
  assert.equal(out.totalLines, 2500);
  assert.equal(out.endOfFile, false);
});

async function rejects(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err) => err instanceof ToolError && message.test(err.message));
}

Deno.test("fsRead() refuses binary, non-UTF-8, fake image, missing and directory paths", async () => {
  await using ws = await tempWorkspace({ "sub/x.txt": "x" });
  await Deno.writeFile(join(ws.dir, "bin"), new Uint8Array([65, 0, 66]));
  await Deno.writeFile(join(ws.dir, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  await Deno.writeFile(join(ws.dir, "pic"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10]));
  await Deno.writeTextFile(join(ws.dir, "photo.JPG"), "not really");
  await rejects(fsRead.run({ path: "bin" }, ws.ctx), /file is binary/);
  await rejects(fsRead.run({ path: "latin1.txt" }, ws.ctx), /file is not UTF-8 text/);
  // A picture by its bytes is read as an image; a picture by its name only is refused.
  assert.equal((await fsRead.run({ path: "pic" }, ws.ctx)).image?.mime, "image/png");
  await rejects(fsRead.run({ path: "photo.JPG" }, ws.ctx), /not a PNG, JPEG, GIF or WebP image/);
  await rejects(fsRead.run({ path: "nope.txt" }, ws.ctx), /file does not exist/);
  await rejects(fsRead.run({ path: "sub" }, ws.ctx), /is a directory/);
  await rejects(fsRead.run({ path: "sub/x.txt", offset: 5 }, ws.ctx), /the file has 1 lines/);
});

Deno.test("fsRead() refuses a huge file without offset or limit but reads a window of it", async () => {
  await using ws = await tempWorkspace();
  const line = "z".repeat(1023) + "\n";
  await Deno.writeTextFile(join(ws.dir, "big.txt"), line.repeat(MAX_READ_BYTES / 1024 + 10));
  await assert.rejects(
    fsRead.run({ path: "big.txt" }, ws.ctx),
    (err) => err instanceof ToolError && /offset and limit/.test(err.hint ?? ""),
  );
  const out = await fsRead.run({ path: "big.txt", offset: 10_000, limit: 2 }, ws.ctx);
  assert.equal(out.lines.length, 2);
  assert.equal(out.totalLines, MAX_READ_BYTES / 1024 + 10);
});

Deno.test("fsRead() with skip_unchanged returns no lines for an unchanged whole-file re-read", async () => {
  await using ws = await tempWorkspace({ "a.txt": "one\ntwo\n" });
  const first = await fsRead.run({ path: "a.txt", skip_unchanged: true }, ws.ctx);
  assert.deepEqual([first.unchanged, first.lines], [false, ["one", "two"]]);
  const again = await fsRead.run({ path: "a.txt", skip_unchanged: true }, ws.ctx);
  assert.deepEqual([again.unchanged, again.lines], [true, []]);
  const window = await fsRead.run({ path: "a.txt", skip_unchanged: true, limit: 1 }, ws.ctx);
  assert.deepEqual([window.unchanged, window.lines], [false, ["one"]]);
  await Deno.writeTextFile(join(ws.dir, "a.txt"), "changed\n");
  await Deno.utime(join(ws.dir, "a.txt"), new Date(), new Date(Date.now() + 5000));
  const changed = await fsRead.run({ path: "a.txt", skip_unchanged: true }, ws.ctx);
  assert.deepEqual([changed.unchanged, changed.lines], [false, ["changed"]]);
});

Deno.test("fsRead() refuses a window over max_tokens, counting CJK characters twice", async () => {
  await using ws = await tempWorkspace({ "a.txt": "abcdef\n", "cjk.txt": "\u6f22\u5b57\u6f22\n" });
  await fsRead.run({ path: "a.txt", max_tokens: 2 }, ws.ctx);
  await assert.rejects(
    fsRead.run({ path: "cjk.txt", max_tokens: 1 }, ws.ctx),
    /File content \(2 tokens\) exceeds maximum allowed tokens \(1\)/,
  );
});
