/** Which image a file holds, for the image blocks of a message (`read` of a picture, `exec -i`). */
import { extname } from "node:path";

const IMAGE_EXTENSIONS: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The image MIME type of a file, from its extension or its first bytes. */
export function imageMime(path: string, head: Uint8Array): string | undefined {
  const byExt = IMAGE_EXTENSIONS[extname(path).toLowerCase()];
  if (byExt) return byExt;
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "GIF8") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}
