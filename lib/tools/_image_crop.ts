/**
 * A magnified crop of a PNG or JPEG image, returned as a PNG: decoded with pngjs and jpeg-js
 * (pure JavaScript), cropped to a region given in coordinates normalized to 0–1000, and scaled
 * up (bilinear) so its longer side reaches ZOOM_SIDE pixels, by at most MAX_ZOOM times. Loaded
 * only when `image.zoom` runs.
 */
import pngjs from "pngjs";
import jpeg from "jpeg-js";
import { Buffer } from "node:buffer";
import { ToolError } from "../errors.ts";

/** The longer side a zoomed view is scaled up to. */
const ZOOM_SIDE = 1024;
/** The most a view is magnified. */
const MAX_ZOOM = 8;
/** Decoded images larger than this many pixels are refused (memory: 4 bytes a pixel). */
const MAX_PIXELS = 40_000_000;

/** A region in coordinates normalized to 0–1000 over the whole image. */
export interface NormalizedRegion {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The part of pngjs used here (the package ships no types). */
interface PngCodec {
  new (size: { width: number; height: number }): Bitmap;
  sync: { read(data: Uint8Array): Bitmap; write(png: Bitmap): Uint8Array };
}
const PNG = (pngjs as unknown as { PNG: PngCodec }).PNG;

/** RGBA pixels. */
interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

/** What `cropAndZoom` returns: the view as a PNG and the sizes involved. */
export interface ZoomedView {
  png: Uint8Array;
  source: { width: number; height: number };
  crop: { width: number; height: number };
  view: { width: number; height: number };
}

/** The `region` of the image in `bytes` (`mime`), magnified, as a PNG. */
export function cropAndZoom(bytes: Uint8Array, mime: string, region: NormalizedRegion): ZoomedView {
  return cropImage(bytes, mime, (width, height) => {
    const left = Math.floor((region.x1 / 1000) * width);
    const top = Math.floor((region.y1 / 1000) * height);
    const right = Math.max(Math.ceil((region.x2 / 1000) * width), left + 1);
    const bottom = Math.max(Math.ceil((region.y2 / 1000) * height), top + 1);
    return { left, top, width: right - left, height: bottom - top };
  }, MAX_ZOOM);
}

/** A rectangle of pixels. */
export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The rectangle `rectOf(width, height)` of the image in `bytes` as a PNG, scaled up towards
 * ZOOM_SIDE by at most `maxScale` (1: as it is).
 */
export function cropImage(
  bytes: Uint8Array,
  mime: string,
  rectOf: (width: number, height: number) => PixelRect,
  maxScale: number,
): ZoomedView {
  const source = decode(bytes, mime);
  const rect = rectOf(source.width, source.height);
  const crop = { width: rect.width, height: rect.height };
  const scale = Math.max(1, Math.min(maxScale, ZOOM_SIDE / Math.max(crop.width, crop.height)));
  const view = {
    width: Math.max(1, Math.round(crop.width * scale)),
    height: Math.max(1, Math.round(crop.height * scale)),
  };
  const out = new PNG({ width: view.width, height: view.height });
  resample(source, rect, { ...view, data: out.data });
  return {
    png: new Uint8Array(PNG.sync.write(out)),
    source: { width: source.width, height: source.height },
    crop,
    view,
  };
}

function decode(bytes: Uint8Array, mime: string): Bitmap {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (mime === "image/png") {
      checkPixels(buffer.readUInt32BE(16) * buffer.readUInt32BE(20));
      const png = PNG.sync.read(buffer);
      return { width: png.width, height: png.height, data: png.data };
    }
    if (mime === "image/jpeg") {
      const maxMemoryUsageInMB = Math.ceil((MAX_PIXELS * 4) / 1_000_000) + 64;
      const maxResolutionInMP = MAX_PIXELS / 1_000_000;
      const img = jpeg.decode(buffer, { useTArray: true, maxMemoryUsageInMB, maxResolutionInMP });
      return { width: img.width, height: img.height, data: img.data };
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(
      `Cannot decode the image: ${err instanceof Error ? err.message : err}`,
      "Check that the file is a whole, valid image",
    );
  }
  throw new ToolError(
    `Cannot zoom ${mime} images: zooming reads PNG and JPEG images`,
    "Convert it to PNG with a shell command, then zoom the copy",
  );
}

function checkPixels(pixels: number): void {
  if (pixels <= MAX_PIXELS) return;
  throw new ToolError(
    `Cannot zoom the image: it has ${pixels} pixels, more than the ${MAX_PIXELS} zooming decodes`,
    "Make a smaller copy with a shell command and zoom that",
  );
}

/** Bilinear scaling of `from`'s rectangle `rect` onto all of `to`. */
function resample(
  from: Bitmap,
  rect: { left: number; top: number; width: number; height: number },
  to: Bitmap,
): void {
  const sx = rect.width / to.width;
  const sy = rect.height / to.height;
  const at = (x: number, y: number, c: number) =>
    from.data[(Math.min(y, from.height - 1) * from.width + Math.min(x, from.width - 1)) * 4 + c];
  for (let y = 0; y < to.height; y++) {
    const fy = Math.max(rect.top + (y + 0.5) * sy - 0.5, rect.top);
    const y0 = Math.floor(fy);
    const wy = fy - y0;
    for (let x = 0; x < to.width; x++) {
      const fx = Math.max(rect.left + (x + 0.5) * sx - 0.5, rect.left);
      const x0 = Math.floor(fx);
      const wx = fx - x0;
      const x1 = Math.min(x0 + 1, rect.left + rect.width - 1);
      const y1 = Math.min(y0 + 1, rect.top + rect.height - 1);
      for (let c = 0; c < 4; c++) {
        const top = at(x0, y0, c) * (1 - wx) + at(x1, y0, c) * wx;
        const bottom = at(x0, y1, c) * (1 - wx) + at(x1, y1, c) * wx;
        to.data[(y * to.width + x) * 4 + c] = Math.round(top * (1 - wy) + bottom * wy);
      }
    }
  }
}
