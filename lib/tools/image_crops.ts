/**
 * Crops of an image file for a tool result: a magnified view of a normalized region
 * (`image.zoom`) and a pixel region at its own size (`image.view` with `region`). Loaded when one
 * is asked for, with the decoders (`_image_crop.ts`).
 */
import { ToolError } from "../errors.ts";
import { base64Of, checkImageFile, MAX_IMAGE_BYTES, readImageBytes } from "./image_file.ts";
import { cropAndZoom, cropImage, type NormalizedRegion } from "./_image_crop.ts";
import type { ImageResult } from "./image_types.ts";
import type { ToolContext } from "./types.ts";

/** The largest picture cropped: only the crop is sent, so it may be larger than a view. */
const MAX_CROP_SOURCE_BYTES = 40 * 1024 * 1024;

/** The normalized `region` of the PNG or JPEG image at `abs`, magnified, as a PNG. */
export async function zoomView(
  ctx: ToolContext,
  abs: string,
  given: string,
  region: NormalizedRegion,
): Promise<ImageResult> {
  const info = await checkImageFile(ctx, abs, given, MAX_CROP_SOURCE_BYTES);
  const zoomed = cropAndZoom(await readImageBytes(ctx, abs, info.size), info.mime, region);
  const size = (s: { width: number; height: number }) => `${s.width}x${s.height}`;
  return {
    path: info.path,
    absolutePath: abs,
    mime: "image/png",
    bytes: zoomed.png.length,
    imageNote: `[zoomed region (${region.x1},${region.y1})-(${region.x2},${region.y2}) of ` +
      `${info.path}: image ${size(zoomed.source)}, region ${size(zoomed.crop)}, ` +
      `view ${size(zoomed.view)}]`,
    image: { mime: "image/png", base64: base64Of(zoomed.png) },
  };
}

/** A rectangle of an image in pixels, from its top-left corner. */
export interface PixelRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The pixels `region` of the PNG or JPEG image at `abs`, at their own size, as a PNG after a
 * one-line note (Kimi Code's ReadMediaFile `region`). A region outside the image is refused.
 */
export async function regionView(
  ctx: ToolContext,
  abs: string,
  given: string,
  region: PixelRegion,
): Promise<ImageResult> {
  const info = await checkImageFile(ctx, abs, given, MAX_CROP_SOURCE_BYTES);
  const bytes = await readImageBytes(ctx, abs, info.size);
  const view = cropImage(bytes, info.mime, (width, height) => {
    if (region.x + region.width > width || region.y + region.height > height) {
      throw new ToolError(
        `Cannot read region x=${region.x} y=${region.y} ${region.width}x${region.height} of ` +
          `"${given}": it reaches outside the ${width}x${height} image`,
        `Keep x + width within ${width} and y + height within ${height}`,
      );
    }
    return { left: region.x, top: region.y, width: region.width, height: region.height };
  }, 1);
  if (view.png.length > MAX_IMAGE_BYTES) {
    throw new ToolError(
      `Cannot read region of "${given}": as a PNG it is ${view.png.length} bytes, more than ` +
        `the ${MAX_IMAGE_BYTES} an image may be`,
      "Read a smaller region",
    );
  }
  return {
    path: info.path,
    absolutePath: abs,
    mime: "image/png",
    bytes: view.png.length,
    imageNote: `[image: region x=${region.x} y=${region.y} ${region.width}x${region.height} of ` +
      `${info.path} (${view.source.width}x${view.source.height})]`,
    image: { mime: "image/png", base64: base64Of(view.png) },
  };
}
