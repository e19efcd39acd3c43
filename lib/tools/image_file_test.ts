import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { FsRefusedError, inProcessFs } from "../../sandbox/file_system.ts";
import { fsRead } from "./fs_read.ts";
import { MAX_IMAGE_BYTES } from "./image_file.ts";
import { imageResultParts, isImageResult } from "./image_view.ts";
import { imageView } from "./image_view.ts";
import { tempWorkspace } from "./_test_workspace.ts";

/** A 1×1 PNG. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PNG = Uint8Array.from(atob(PIXEL), (c) => c.charCodeAt(0));
/** The first bytes of a JPEG. */
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

async function refused(p: Promise<unknown>, message: RegExp, hint?: RegExp): Promise<void> {
  await assert.rejects(p, (err) => {
    assert.ok(err instanceof ToolError, String(err));
    assert.match(err.message, message);
    if (hint) assert.match(err.hint ?? "", hint);
    return true;
  });
}

Deno.test("image.view returns a note and the picture; fs.read of a picture does the same", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeFile(join(ws.dir, "shot.png"), PNG);
  const viewed = await imageView.run({ path: "shot.png" }, ws.ctx);
  assert.deepEqual(imageResultParts(viewed), {
    text: "[image: shot.png (image/png, 70 bytes)]",
    images: [{ mime: "image/png", base64: PIXEL }],
  });
  assert.equal(viewed.absolutePath, join(ws.dir, "shot.png"));
  const read = await fsRead.run({ path: join(ws.dir, "shot.png") }, ws.ctx);
  assert.deepEqual(imageResultParts(read), imageResultParts(viewed));
});

Deno.test("a picture's type comes from its bytes: a misnamed PNG or JPEG is sent as what it is", async () => {
  await using ws = await tempWorkspace({ "notes.txt": "plain text\n" });
  await Deno.writeFile(join(ws.dir, "pixel.dat"), PNG);
  await Deno.writeFile(join(ws.dir, "photo.png"), JPEG_HEAD);
  const dat = await fsRead.run({ path: "pixel.dat" }, ws.ctx);
  assert.ok(isImageResult(dat));
  assert.equal(dat.image?.mime, "image/png");
  const photo = await imageView.run({ path: "photo.png" }, ws.ctx);
  assert.equal(photo.mime, "image/jpeg");
  assert.match(photo.imageNote, /photo\.png \(image\/jpeg, 10 bytes\)/);
  // A text file stays a text read.
  assert.ok(!isImageResult(await fsRead.run({ path: "notes.txt" }, ws.ctx)));
});

Deno.test("bad pictures are refused with the cause and the fix", async () => {
  await using ws = await tempWorkspace({ "fake.png": "not a picture at all", "a.txt": "x" });
  await Deno.mkdir(join(ws.dir, "dir.png"));
  await Deno.writeFile(join(ws.dir, "empty.gif"), new Uint8Array());
  const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
  big.set(PNG);
  await Deno.writeFile(join(ws.dir, "big.png"), big);
  const view = (path: string) => imageView.run({ path }, ws.ctx);
  await refused(view("fake.png"), /not a PNG, JPEG, GIF or WebP image/, /Convert it/);
  await refused(fsRead.run({ path: "fake.png" }, ws.ctx), /not a PNG, JPEG, GIF or WebP image/);
  await refused(view("a.txt"), /format is unknown/);
  await refused(
    view("big.png"),
    /the image is 3\.6MB, more than the 3\.6MB an image may be/,
    /smaller copy/,
  );
  await refused(fsRead.run({ path: "big.png" }, ws.ctx), /more than the 3\.6MB/);
  await refused(view("dir.png"), /it is a directory/);
  await refused(view("empty.gif"), /the file is empty/);
  await refused(view("missing.png"), /file does not exist/, /Check the path/);
});

Deno.test("for a model that takes no images a picture is a one-line note without its bytes", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeFile(join(ws.dir, "shot.png"), PNG);
  const ctx = { ...ws.ctx, takesImages: false };
  const read = await fsRead.run({ path: "shot.png" }, ctx);
  assert.deepEqual(imageResultParts(read), {
    text:
      "[shot.png (image/png, 70 bytes) is an image; the current model does not take images, so it is not shown]",
    images: [],
  });
});

Deno.test("pictures are read through the session's file helper, whose refusals are the answer", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeFile(join(ws.dir, "shot.png"), PNG);
  const fs = {
    ...inProcessFs,
    readFile: (path: string) =>
      Promise.reject(new FsRefusedError(`Reading ${path} is not allowed`, { path, hint: "Ask" })),
  };
  await refused(imageView.run({ path: "shot.png" }, { ...ws.ctx, fs }), /is not allowed/, /Ask/);
});
