/**
 * How much of an MCP server's answer reaches the model: a tool result's text and a resource
 * read are kept whole up to `max_output_bytes` of its `[mcp_servers.ID]`, else their head and
 * tail with a note saying how much was left out in between, as shell output is; a result's images
 * together up to `max_image_bytes`, the ones past it left out with a note. Pure.
 */
import { CappedOutput } from "./_capped_output.ts";

/** The limits of one server's answers. */
export interface McpOutputCaps {
  /** Most bytes (UTF-8) of one result's text or one resource read; half head, half tail. */
  textBytes: number;
  /** Most bytes (decoded) of one result's images together. */
  imageBytes: number;
}

/** `max_output_bytes` when unset: what shell output keeps (128 KiB of head, 128 KiB of tail). */
export const DEFAULT_MCP_OUTPUT_BYTES = 256 * 1024;
/** `max_image_bytes` when unset: one large screenshot (the vendors' own limit is near it). */
export const DEFAULT_MCP_IMAGE_BYTES = 5 * 1024 * 1024;

/** The caps of a server that sets none. */
export const DEFAULT_MCP_OUTPUT_CAPS: McpOutputCaps = {
  textBytes: DEFAULT_MCP_OUTPUT_BYTES,
  imageBytes: DEFAULT_MCP_IMAGE_BYTES,
};

/**
 * `text` whole when it has at most `maxBytes` bytes, else its first and last `maxBytes / 2`
 * bytes around a note of how many were left out (`[… N bytes truncated …]`).
 */
export function capText(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most three UTF-8 bytes: short texts need no encoding to know.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  const head = Math.ceil(maxBytes / 2);
  const out = new CappedOutput(head, Math.max(0, maxBytes - head));
  out.push(bytes);
  return out.text();
}

/** An image of a result, base64. */
export interface CappedImage {
  mime: string;
  base64: string;
}

/**
 * The images that fit in `maxBytes` together, in order, and a note for each one left out (its
 * type and size), for the result's text.
 */
export function capImages(
  images: CappedImage[],
  maxBytes: number,
): { images: CappedImage[]; notes: string[] } {
  const kept: CappedImage[] = [];
  const notes: string[] = [];
  let used = 0;
  for (const image of images) {
    const size = base64Bytes(image.base64);
    if (used + size <= maxBytes) {
      kept.push(image);
      used += size;
      continue;
    }
    notes.push(
      `[image (${image.mime}, ${formatFileSize(size)}) left out: the images of one result may ` +
        `hold ${formatFileSize(maxBytes)} together]`,
    );
  }
  return { images: kept, notes };
}

/** One part of a resource read: text, or base64 bytes (`McpResourceContent`). */
export interface ResourcePart {
  mimeType?: string;
  text?: string;
  blob?: string;
}

/**
 * The parts of a resource read within `maxBytes` together (text bytes and base64 characters), in
 * order: a text past what is left keeps its head and tail with a note, a binary part past it is
 * left out with a note in its `text`.
 */
export function capResourceParts<T extends ResourcePart>(parts: T[], maxBytes: number): T[] {
  let left = maxBytes;
  return parts.map((part) => {
    if (part.text !== undefined) {
      const text = capText(part.text, left);
      left = Math.max(0, left - utf8Length(text));
      return text === part.text ? part : { ...part, text };
    }
    if (part.blob === undefined) return part;
    if (part.blob.length <= left) {
      left -= part.blob.length;
      return part;
    }
    const { blob: _, ...rest } = part;
    const size = formatFileSize(base64Bytes(part.blob));
    const what = part.mimeType || "unknown type";
    const text = `[binary content (${what}, ${size}) left out: one resource read may hold ` +
      `${formatFileSize(maxBytes)}]`;
    return { ...rest, text } as T;
  });
}

/** `512 bytes`, `1.5KB`, `3MB`: sizes as Claude Code words them. */
export function formatFileSize(bytes: number): string {
  const units = ["KB", "MB", "GB"];
  if (bytes < 1024) return `${bytes} bytes`;
  let size = bytes / 1024;
  for (const unit of units) {
    if (size < 1024 || unit === "GB") return `${size.toFixed(1).replace(/\.0$/, "")}${unit}`;
    size /= 1024;
  }
  return `${bytes} bytes`;
}

function base64Bytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(base64.length * 3 / 4) - padding);
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
