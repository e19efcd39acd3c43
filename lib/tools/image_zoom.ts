import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { resolvePath } from "./_paths.ts";
import type { ImageResult } from "./image_types.ts";
import type { ToolContext } from "./types.ts";

/** The largest picture zoomed into: only the crop is sent, so it may be larger than a view. */
const MAX_ZOOM_SOURCE_BYTES = 40 * 1024 * 1024;

const coordinate = z.number().int().min(0).max(1000);

/** Input of `image.zoom`: a region in coordinates normalized to 0–1000 over the whole image. */
const imageZoomInput = z.object({
  path: z.string().min(1).describe("Image file path, absolute or relative to the workspace"),
  x1: coordinate.describe("Left edge, 0–1000"),
  y1: coordinate.describe("Top edge, 0–1000"),
  x2: coordinate.describe("Right edge, 0–1000"),
  y2: coordinate.describe("Bottom edge, 0–1000"),
});

/**
 * A magnified view of a region of a PNG or JPEG image (Qwen Code's `zoom_image`): the region is
 * always given against the whole original image; the result is a one-line note with the sizes
 * and the view as a PNG. Offered only to models that take images, like `image.view`.
 */
export const imageZoom = defineCapability({
  id: "image.zoom",
  input: imageZoomInput,
  mutates: false,
  async run(input, ctx): Promise<ImageResult> {
    if (input.x1 >= input.x2 || input.y1 >= input.y2) {
      throw new ToolError(
        `Cannot zoom: the region (${input.x1},${input.y1})-(${input.x2},${input.y2}) is empty`,
        "Give x1 < x2 and y1 < y2",
      );
    }
    if (ctx.takesImages === false) {
      throw new ToolError(
        "Cannot zoom: the current model does not take images",
        "Switch to a model that takes images",
      );
    }
    const abs = resolvePath(ctx.cwd, input.path);
    // Loaded when needed: the decoders are large and most sessions never zoom.
    const files = await import("./image_file.ts");
    const { cropAndZoom } = await import("./_image_crop.ts");
    const info = await files.checkImageFile(ctx, abs, input.path, MAX_ZOOM_SOURCE_BYTES);
    const zoomed = cropAndZoom(await files.readImageBytes(ctx, abs, info.size), info.mime, input);
    const size = (s: { width: number; height: number }) => `${s.width}x${s.height}`;
    return {
      path: info.path,
      absolutePath: abs,
      mime: "image/png",
      bytes: zoomed.png.length,
      imageNote: `[zoomed region (${input.x1},${input.y1})-(${input.x2},${input.y2}) of ` +
        `${info.path}: image ${size(zoomed.source)}, region ${size(zoomed.crop)}, ` +
        `view ${size(zoomed.view)}]`,
      image: { mime: "image/png", base64: files.base64Of(zoomed.png) },
    };
  },
});

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
  if (ctx.takesImages === false) {
    return (await import("./image_file.ts")).readImageFile(ctx, abs, given);
  }
  const files = await import("./image_file.ts");
  const { cropImage } = await import("./_image_crop.ts");
  const info = await files.checkImageFile(ctx, abs, given, MAX_ZOOM_SOURCE_BYTES);
  const bytes = await files.readImageBytes(ctx, abs, info.size);
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
  if (view.png.length > files.MAX_IMAGE_BYTES) {
    throw new ToolError(
      `Cannot read region of "${given}": as a PNG it is ${view.png.length} bytes, more than ` +
        `the ${files.MAX_IMAGE_BYTES} an image may be`,
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
    image: { mime: "image/png", base64: files.base64Of(view.png) },
  };
}
