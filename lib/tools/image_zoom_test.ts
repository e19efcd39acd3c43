import assert from "node:assert/strict";
import { join } from "node:path";
import pngjs from "pngjs";
import jpeg from "jpeg-js";
import { Buffer } from "node:buffer";
import { ToolError } from "../errors.ts";
import { imageView, imageZoom } from "./image_view.ts";
import { tempWorkspace } from "./_test_workspace.ts";

interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}
const PNG = (pngjs as unknown as {
  PNG: {
    new (size: { width: number; height: number }): Bitmap;
    sync: { read(data: Uint8Array): Bitmap; write(png: Bitmap): Uint8Array };
  };
}).PNG;

/** A `width`×`height` PNG, red on the left half and blue on the right. */
function redBlue(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      png.data.set(x < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * width + x) * 4);
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

/** The view a zoom result carries, decoded. */
function viewOf(result: { image?: { base64: string } }): Bitmap {
  return PNG.sync.read(Buffer.from(result.image!.base64, "base64"));
}

const pixel = (
  b: Bitmap,
  x: number,
  y: number,
) => [...b.data.subarray((y * b.width + x) * 4, (y * b.width + x) * 4 + 4)];

Deno.test("image.zoom returns a magnified PNG of the region, measured on the whole image", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeFile(join(ws.dir, "flag.png"), redBlue(100, 50));
  const right = await imageZoom.run(
    { path: "flag.png", x1: 500, y1: 0, x2: 1000, y2: 1000 },
    ws.ctx,
  );
  assert.equal(
    right.imageNote,
    "[zoomed region (500,0)-(1000,1000) of flag.png: image 100x50, region 50x50, view 400x400]",
  );
  const view = viewOf(right);
  assert.deepEqual([view.width, view.height], [400, 400]);
  assert.deepEqual(pixel(view, 0, 0), [0, 0, 255, 255]);
  assert.deepEqual(pixel(view, 399, 399), [0, 0, 255, 255]);
  const left = viewOf(
    await imageZoom.run({ path: "flag.png", x1: 0, y1: 0, x2: 400, y2: 500 }, ws.ctx),
  );
  assert.deepEqual(pixel(left, left.width - 1, left.height - 1), [255, 0, 0, 255]);
});

Deno.test("image.zoom reads JPEG too", async () => {
  await using ws = await tempWorkspace();
  const data = new Uint8Array(16 * 16 * 4).map((_, i) => (i % 4 === 1 || i % 4 === 3 ? 255 : 0));
  const encoded = jpeg.encode({ width: 16, height: 16, data }, 95).data;
  await Deno.writeFile(join(ws.dir, "green.jpg"), new Uint8Array(encoded));
  const result = await imageZoom.run({ path: "green.jpg", x1: 0, y1: 0, x2: 500, y2: 500 }, ws.ctx);
  const [r, g, b] = pixel(viewOf(result), 10, 10);
  assert.ok(g > 200 && r < 60 && b < 60, `green, got ${[r, g, b]}`);
  assert.equal(result.mime, "image/png");
});

Deno.test("image.zoom refuses an empty region, other formats and a model without images", async () => {
  await using ws = await tempWorkspace({ "notes.txt": "text" });
  await Deno.writeFile(join(ws.dir, "flag.png"), redBlue(4, 4));
  await Deno.writeFile(
    join(ws.dir, "anim.gif"),
    new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
  );
  const refused = async (input: Record<string, unknown>, message: RegExp, ctx = ws.ctx) =>
    await assert.rejects(
      imageZoom.run({ x1: 0, y1: 0, x2: 1000, y2: 1000, ...input } as never, ctx),
      (err) => err instanceof ToolError && message.test(err.message),
    );
  await refused(
    { path: "flag.png", x1: 600, x2: 500 },
    /the region \(600,0\)-\(500,1000\) is empty/,
  );
  await refused({ path: "anim.gif" }, /Cannot zoom image\/gif images: zooming reads PNG and JPEG/);
  await refused({ path: "notes.txt" }, /not a PNG, JPEG, GIF or WebP image/);
  await refused({ path: "flag.png" }, /does not take images/, { ...ws.ctx, takesImages: false });
});

Deno.test("image.view with a region returns those pixels at their own size, and refuses one outside", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeFile(join(ws.dir, "flag.png"), redBlue(100, 50));
  const region = { x: 60, y: 10, width: 20, height: 30 };
  const result = await imageView.run({ path: "flag.png", region }, ws.ctx);
  assert.equal(result.imageNote, "[image: region x=60 y=10 20x30 of flag.png (100x50)]");
  const view = viewOf(result);
  assert.deepEqual([view.width, view.height], [20, 30]);
  assert.deepEqual(pixel(view, 0, 0), [0, 0, 255, 255]);
  await assert.rejects(
    imageView.run({ path: "flag.png", region: { ...region, y: 30 } }, ws.ctx),
    (err) =>
      err instanceof ToolError && /reaches outside the 100x50 image/.test(err.message) &&
      /y \+ height within 50/.test(err.hint ?? ""),
  );
});
