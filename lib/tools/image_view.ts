/**
 * Images as tool results: `image.view`, and the test for the result (`image_types.ts`) that it
 * and `fs.read` of a picture return; the loop sends the one-line note as the text and the image
 * after it, on every wire. The file is read by `image_file.ts`, loaded on the first picture.
 */
import * as z from "zod";
import { defineCapability } from "./capability.ts";
import { resolvePath } from "./_paths.ts";
import type { ImageData } from "./tool_source.ts";
import type { ImageResult } from "./image_types.ts";
import { regionView } from "./image_zoom.ts";

export type { ImageResult };

/** Whether a capability's output is an image result (see ImageResult). */
export function isImageResult(output: unknown): output is ImageResult {
  return typeof (output as { imageNote?: unknown } | null)?.imageNote === "string";
}

/** The text and images a tool result made of `output` sends, when it is an image result. */
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

/**
 * Shows the model an image file from disk (PNG, JPEG, GIF or WebP): a one-line note and the
 * image. Offered only to models that take images: the session leaves `image.*` tools out for
 * the others.
 */
export const imageView = defineCapability({
  id: "image.view",
  input: imageViewInput,
  mutates: false,
  async run(input, ctx): Promise<ImageResult> {
    const abs = resolvePath(ctx.cwd, input.path);
    if (input.region) return await regionView(ctx, abs, input.path, input.region);
    const { readImageFile } = await import("./image_file.ts");
    return await readImageFile(ctx, abs, input.path);
  },
});
