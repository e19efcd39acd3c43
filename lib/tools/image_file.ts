/**
 * An image file as a tool result (`image.view`, and `fs.read` of a picture): its bytes checked
 * (a regular file, at most MAX_IMAGE_BYTES, a PNG, JPEG, GIF or WebP by its first bytes) and
 * read through the session's file helper, so the sandbox's read rules apply as to any read. The
 * result (`image_view.ts`) carries a one-line note and the image. Loaded when a picture is read.
 */
import { Buffer } from "node:buffer";
import { ToolError } from "../errors.ts";
import { imageMime } from "../model/image_mime.ts";
import { fsOf } from "./_fs.ts";
import { displayPath } from "./_paths.ts";
import { formatFileSize } from "./mcp_output_caps.ts";
import type { ImageResult } from "./image_types.ts";
import type { ToolContext } from "./types.ts";

/**
 * The largest image file sent: its base64 (4/3 of it) stays under the 5 MB per image of the
 * strictest wire (Anthropic's Messages API).
 */
export const MAX_IMAGE_BYTES = 3_750_000;

/** Bytes read at once; large, so the sandboxed file helper takes few round trips. */
const CHUNK_BYTES = 1024 * 1024;

/** An image file's checked facts: its display path, format by its bytes and size. */
export interface ImageFileInfo {
  path: string;
  mime: string;
  size: number;
}

/**
 * Checks the image file at `abs` (`given` as the model wrote it): a regular, non-empty file of
 * at most `maxBytes` whose first bytes are a PNG, JPEG, GIF or WebP. Throws ToolError otherwise.
 */
export async function checkImageFile(
  ctx: ToolContext,
  abs: string,
  given: string,
  maxBytes = MAX_IMAGE_BYTES,
): Promise<ImageFileInfo> {
  const size = await imageFileSize(ctx, abs, given, maxBytes);
  const head = await fsOf(ctx).readFile(abs, { offset: 0, length: 16 });
  // By its bytes, whatever its name says: a wire refuses an image whose type is wrong.
  const mime = imageMime("", head);
  if (!mime) {
    throw new ToolError(
      `Cannot read image "${given}": it is not a PNG, JPEG, GIF or WebP image (its format is unknown)`,
      "Convert it to PNG or JPEG with a shell command, then view the copy",
    );
  }
  return { path: displayPath(ctx.cwd, abs), mime, size };
}

/**
 * Reads the image file at `abs` (`given` as the model wrote it) for a tool result; only its note
 * for a model that takes no images. Throws ToolError as `checkImageFile` does.
 */
export async function readImageFile(
  ctx: ToolContext,
  abs: string,
  given: string,
): Promise<ImageResult> {
  const { path, mime, size } = await checkImageFile(ctx, abs, given);
  const described = `${path} (${mime}, ${formatFileSize(size)})`;
  const fields = { path, absolutePath: abs, mime, bytes: size };
  if (ctx.takesImages === false) {
    return {
      ...fields,
      imageNote:
        `[${described} is an image; the current model does not take images, so it is not shown]`,
    };
  }
  const bytes = await readImageBytes(ctx, abs, size);
  return {
    ...fields,
    imageNote: `[image: ${described}]`,
    image: { mime, base64: base64Of(bytes) },
  };
}

/** `bytes` as base64. */
export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** The size of a regular, non-empty image file of at most `maxBytes`. */
async function imageFileSize(
  ctx: ToolContext,
  abs: string,
  given: string,
  maxBytes: number,
): Promise<number> {
  let stat;
  try {
    stat = await fsOf(ctx).stat(abs);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    throw new ToolError(`Cannot read image "${given}": file does not exist`, "Check the path");
  }
  if (stat.isDirectory) {
    throw new ToolError(
      `Cannot read image "${given}": it is a directory`,
      "Give the path of an image file",
    );
  }
  if (!stat.isFile) {
    throw new ToolError(
      `Cannot read image "${given}": it is not a regular file`,
      "Give the path of an image file",
    );
  }
  if (stat.size === 0) throw new ToolError(`Cannot read image "${given}": the file is empty`);
  if (stat.size > maxBytes) {
    throw new ToolError(
      `Cannot read image "${given}": the image is ${formatFileSize(stat.size)}, more than the ` +
        `${formatFileSize(maxBytes)} an image may be`,
      "Make a smaller copy (fewer pixels, or JPEG) with a shell command and view that",
    );
  }
  return stat.size;
}

/** The whole file, read in chunks through the file helper (it may have grown: capped again). */
export async function readImageBytes(
  ctx: ToolContext,
  abs: string,
  size: number,
): Promise<Uint8Array> {
  const fs = fsOf(ctx);
  const out = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const chunk = await fs.readFile(abs, {
      offset: filled,
      length: Math.min(CHUNK_BYTES, size - filled),
    });
    if (chunk.length === 0) break;
    out.set(chunk, filled);
    filled += chunk.length;
  }
  return out.subarray(0, filled);
}
