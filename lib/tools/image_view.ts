/**
 * `image.view`, `image.zoom` and the test for their results (and `fs.read`'s of a picture): a
 * one-line note, then the image. Reading and cropping load on first use.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { resolvePath } from "./_paths.ts";
import type { ImageData } from "./tool_source.ts";
import type { ImageResult } from "./image_types.ts";

export type { ImageResult };

/** Whether a capability's output is an image result. */
export function isImageResult(output: unknown): output is ImageResult {
  return typeof (output as { imageNote?: unknown } | null)?.imageNote === "string";
}

/** The text and images of an image result; null for other outputs. */
export function imageResultParts(output: unknown): { text: string; images: ImageData[] } | null {
  if (!isImageResult(output)) return null;
  return { text: output.imageNote, images: output.image ? [output.image] : [] };
}

/** Input of `image.view`. */
const imageViewInput = z.object({
  path: z.string().min(1).describe("Image file path, absolute or relative to the workspace"),
  region: z.object({
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
  }).optional().describe("Only these pixels (PNG or JPEG), at their own size"),
  /** Accepted: the image is always sent at its own resolution. */
  full_resolution: z.boolean().optional(),
});

/** An image file (PNG, JPEG, GIF or WebP) for the model; `image.*` only for models with images. */
export const imageView = defineCapability({
  id: "image.view",
  input: imageViewInput,
  mutates: false,
  async run(input, ctx): Promise<ImageResult> {
    const abs = resolvePath(ctx.cwd, input.path);
    if (input.region && ctx.takesImages !== false) {
      const { regionView } = await import("./image_crops.ts");
      return await regionView(ctx, abs, input.path, input.region);
    }
    const { readImageFile } = await import("./image_file.ts");
    return await readImageFile(ctx, abs, input.path);
  },
});

const coordinate = z.number().int().min(0).max(1000);

/** Input of `image.zoom`. */
const imageZoomInput = z.object({
  path: z.string().min(1).describe("Image file path, absolute or relative to the workspace"),
  x1: coordinate.describe("Left edge, 0–1000"),
  y1: coordinate.describe("Top edge, 0–1000"),
  x2: coordinate.describe("Right edge, 0–1000"),
  y2: coordinate.describe("Bottom edge, 0–1000"),
});

/** A magnified PNG of a region of a PNG or JPEG image, measured on the whole (`zoom_image`). */
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
    const { zoomView } = await import("./image_crops.ts");
    return await zoomView(ctx, resolvePath(ctx.cwd, input.path), input.path, input);
  },
});
