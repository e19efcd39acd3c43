import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { resolvePath } from "./_paths.ts";
import type { ImageResult } from "./image_types.ts";

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
