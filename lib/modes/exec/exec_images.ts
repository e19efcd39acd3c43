/** `-i/--image FILE[,FILE]`: images read from disk and attached to the first user message. */
import { resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { readInputFile } from "../../input_file.ts";
import { imageMime } from "../../model/image_mime.ts";
import type { Block } from "../../model/message.ts";

/** The largest image we send: providers refuse larger ones. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

const LIMIT_TEXT = `${MAX_IMAGE_BYTES / (1024 * 1024)} MB`;
const IMAGE_HINT = "Pass --image a PNG, JPEG, GIF or WebP file";

/** Every path of repeated `--image` flags, each of which may be a comma list. */
export function imagePaths(flags: readonly string[]): string[] {
  return flags.flatMap((flag) => flag.split(",")).map((p) => p.trim()).filter(Boolean);
}

/** Reads each image; a missing, oversized or non-image file is an error naming it. */
export async function readImages(paths: readonly string[]): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const path of paths) {
    const file = resolve(path);
    const info = await Deno.stat(file).catch((error: Error) => {
      throw new UserError(`Cannot read image "${file}": ${error.message}`, { hint: IMAGE_HINT });
    });
    if (!info.isFile) {
      throw new UserError(`Cannot read image "${file}": not a file`, { hint: IMAGE_HINT });
    }
    if (info.size > MAX_IMAGE_BYTES) {
      const size = `${megabytes(info.size)} MB`;
      throw new UserError(`Image "${file}" is ${size}, over the limit of ${LIMIT_TEXT}`, {
        hint: `Shrink or crop the image below ${LIMIT_TEXT}`,
      });
    }
    // Bounded even if the file was swapped or grew since the stat.
    const bytes = await readInputFile(file, { what: "image", maxBytes: MAX_IMAGE_BYTES });
    // By content only: a text file named .png is not an image.
    const mime = imageMime("", bytes);
    if (!mime) {
      throw new UserError(`Cannot attach "${file}": it is not a PNG, JPEG, GIF or WebP image`, {
        hint: IMAGE_HINT,
      });
    }
    const { Buffer } = await import("node:buffer"); // the Node layer loads only with an image
    blocks.push({ type: "image", mime, base64: Buffer.from(bytes).toString("base64") });
  }
  return blocks;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
