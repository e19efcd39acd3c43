import * as z from "zod";
import { ToolError } from "../errors.ts";
import { imageMime } from "../model/image_mime.ts";
import type { ImageResult } from "./image_types.ts";
import type { ToolContext } from "./types.ts";
import { CodedToolError } from "./_coded_error.ts";
import { defineCapability } from "./capability.ts";
import { displayPath, resolvePath } from "./_paths.ts";
import { readRecordOf, recordRead, unchangedSince } from "./_read_records.ts";
import { fsOf } from "./_fs.ts";
import type { FileStat, FileSystem } from "../../sandbox/file_system.ts";

/** Lines returned when the call gives no limit. */
const DEFAULT_READ_LIMIT = 2000;
/** Characters kept of a longer line; the rest is replaced by a marker. */
export const MAX_LINE_CHARS = 2000;
/** Files larger than this are only read with an explicit `offset` or `limit`. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

/** Large, so that a file read through the sandboxed helper takes few round trips. */
const CHUNK_BYTES = 1024 * 1024;

/** Input of `fs.read`. */
const fsReadInput = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the workspace"),
  offset: z.number().int().optional()
    .describe("First line, counting from 1 (0 is read as 1); -N starts N lines before the end"),
  limit: z.number().int().min(1).optional().describe("Number of lines to return"),
  end_line: z.number().int().min(1).optional()
    .describe("Last line to return, counting from 1, in place of `limit`"),
  skip_unchanged: z.boolean().optional()
    .describe(
      "A whole-file re-read of a file unchanged since its last whole read returns no lines",
    ),
  max_tokens: z.number().int().min(1).optional()
    .describe("Refuse a window estimated above this many tokens (characters / 3, CJK twice)"),
});

/**
 * Result of `fs.read`: a window of the file's lines, without line terminators; for a picture no
 * lines and the image fields (`ImageResult`), which the loop sends as an image.
 */
export interface FsReadOutput extends Partial<Omit<ImageResult, "path" | "absolutePath">> {
  /** Relative to the workspace when inside it. */
  path: string;
  absolutePath: string;
  lines: string[];
  /** Number of the first returned line, counting from 1. */
  startLine: number;
  totalLines: number;
  /** Whether the window reaches the last line of the file. */
  endOfFile: boolean;
  /** Whether any returned line was cut to MAX_LINE_CHARS. */
  truncated: boolean;
  /** With `skip_unchanged`: the model already has this whole file, so no lines are returned. */
  unchanged: boolean;
  /** The `offset` and `limit` the call gave, null when it gave none. */
  offset: number | null;
  limit: number | null;
}

/**
 * Reads a window of a UTF-8 text file's lines and records the read (see READ_RECORDS_KEY), so
 * `fs.edit` can require a read first. An image file comes back as an image result
 * (`image_view.ts`); binary and non-UTF-8 files are ToolErrors.
 */
export const fsRead = defineCapability({
  id: "fs.read",
  input: fsReadInput,
  mutates: false,
  async run(input, ctx): Promise<FsReadOutput> {
    try {
      return await readText(input, ctx);
    } catch (err) {
      if (err instanceof ImageFileFound) return await imageRead(ctx, err.abs, input.path);
      throw err;
    }
  },
});

/** A picture as a read's result: no lines, the image (see `image_file.ts`). */
async function imageRead(ctx: ToolContext, abs: string, given: string): Promise<FsReadOutput> {
  // Loaded when needed: most sessions never read a picture.
  const { readImageFile } = await import("./image_file.ts");
  const image = await readImageFile(ctx, abs, given);
  return { ...emptyWindow(ctx.cwd, abs), unchanged: false, offset: null, limit: null, ...image };
}

/** A file read as text turned out to be a picture: read it as an image instead. */
class ImageFileFound extends Error {
  constructor(readonly abs: string) {
    super(`${abs} is an image`);
  }
}

async function readText(
  input: z.infer<typeof fsReadInput>,
  ctx: ToolContext,
): Promise<FsReadOutput> {
  const abs = resolvePath(ctx.cwd, input.path);
  const fs = fsOf(ctx);
  const stat = await statFile(fs, abs, input.path, ctx.cwd);
  // A picture, by its name or (in readWindow) its first bytes, comes back as an image.
  if (imageMime(input.path, new Uint8Array())) return await imageRead(ctx, abs, input.path);
  const ranged = input.limit !== undefined || input.end_line !== undefined;
  if (stat.size > MAX_READ_BYTES && input.offset === undefined && !ranged) {
    throw new ToolError(
      `Cannot read "${input.path}": the file is ${stat.size} bytes, more than ${MAX_READ_BYTES}`,
      "Read a part of it with offset and limit, or search it with a shell command",
    );
  }
  const whole = input.offset === undefined && !ranged;
  const before = readRecordOf(ctx, abs);
  if (input.skip_unchanged && whole && before?.whole && unchangedSince(before, stat)) {
    return { ...emptyWindow(ctx.cwd, abs), unchanged: true, offset: null, limit: null };
  }
  const startLine = (input.offset ?? 1) < 0
    ? await tailStart(fs, abs, input.offset!, input.path)
    : Math.max(input.offset ?? 1, 1);
  const limit = input.limit ?? linesUpTo(input.end_line, startLine, input.path);
  const window = await readWindow(fs, abs, { startLine, limit, given: input.path });
  if (startLine > 1 && startLine > window.totalLines) {
    const fields = { path: input.path, absolutePath: abs, offset: input.offset, startLine };
    throw new CodedToolError(
      "offset_beyond_end",
      { ...fields, totalLines: window.totalLines },
      () => ({
        message:
          `Cannot read "${input.path}" from line ${startLine}: the file has ${window.totalLines} lines`,
        hint: `Use an offset from 1 to ${Math.max(window.totalLines, 1)}`,
      }),
    );
  }
  if (input.max_tokens !== undefined) checkTokenBudget(window.lines, input.max_tokens);
  recordRead(ctx, abs, stat, { whole: whole && window.lines.length >= window.totalLines });
  let truncated = false;
  const lines = window.lines.map((line) => {
    if (line.length <= MAX_LINE_CHARS) return line;
    truncated = true;
    return `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`;
  });
  return {
    path: displayPath(ctx.cwd, abs),
    absolutePath: abs,
    lines,
    startLine,
    totalLines: window.totalLines,
    endOfFile: startLine + lines.length - 1 >= window.totalLines,
    truncated,
    unchanged: false,
    offset: input.offset ?? null,
    limit: input.limit ?? null,
  };
}

function emptyWindow(
  cwd: string,
  abs: string,
): Omit<FsReadOutput, "unchanged" | "offset" | "limit"> {
  const path = displayPath(cwd, abs);
  return {
    path,
    absolutePath: abs,
    lines: [],
    startLine: 1,
    totalLines: 0,
    endOfFile: true,
    truncated: false,
  };
}

/** Tokens estimated as characters / 3, counting CJK characters twice, as ZCode does. */
function checkTokenBudget(lines: string[], maxTokens: number): void {
  const text = lines.join("\n");
  const cjk = text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  const tokens = Math.ceil((text.length + cjk) / 3);
  if (tokens <= maxTokens) return;
  throw new ToolError(
    `File content (${tokens} tokens) exceeds maximum allowed tokens (${maxTokens}). Use offset ` +
      "and limit parameters to read specific portions of the file, or search for specific content",
    "Read a smaller window with offset and limit",
  );
}

async function statFile(
  fs: FileSystem,
  abs: string,
  given: string,
  cwd: string,
): Promise<FileStat> {
  let stat: FileStat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new CodedToolError("file_not_found", { path: given, absolutePath: abs, cwd }, () => ({
        message: `Cannot read "${given}": file does not exist`,
        hint: "Check the path",
      }));
    }
    throw err;
  }
  if (stat.isDirectory) {
    throw new ToolError(
      `Cannot read "${given}": it is a directory`,
      "List it with a shell command or a file search",
    );
  }
  return stat;
}

/** Lines from `startLine` to `endLine` (inclusive); the default limit without an end line. */
function linesUpTo(endLine: number | undefined, startLine: number, given: string): number {
  if (endLine === undefined) return DEFAULT_READ_LIMIT;
  if (endLine < startLine) {
    throw new ToolError(
      `Cannot read "${given}" from line ${startLine} to line ${endLine}: the end is before the start`,
      "Give an end line at or after the start line",
    );
  }
  return endLine - startLine + 1;
}

/** The first line of a read that starts `-offset` lines before the end (kimi `line_offset`). */
async function tailStart(fs: FileSystem, abs: string, offset: number, given: string) {
  const { totalLines } = await readWindow(fs, abs, { startLine: Infinity, limit: 0, given });
  return Math.max(totalLines + offset + 1, 1);
}

/** Streams the file, keeping lines `startLine` to `startLine + limit - 1` and counting all. */
async function readWindow(
  fs: FileSystem,
  abs: string,
  opts: { startLine: number; limit: number; given: string },
): Promise<{ lines: string[]; totalLines: number }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines: string[] = [];
  const last = opts.startLine + opts.limit - 1;
  let lineNo = 1;
  let partial = "";
  let first = true;
  for (let offset = 0;; offset += CHUNK_BYTES) {
    const chunk = await fs.readFile(abs, { offset, length: CHUNK_BYTES });
    if (chunk.length === 0) break;
    if (first) checkText(abs, chunk);
    first = false;
    if (chunk.includes(0)) throw new ToolError(`Cannot read "${opts.given}": file is binary`);
    const parts = (partial + decode(decoder, chunk, true, opts.given)).split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      if (lineNo >= opts.startLine && lineNo <= last) lines.push(line.replace(/\r$/, ""));
      lineNo++;
    }
    if (chunk.length < CHUNK_BYTES) break;
  }
  partial += decode(decoder, new Uint8Array(), false, opts.given);
  if (partial !== "") {
    if (lineNo >= opts.startLine && lineNo <= last) lines.push(partial.replace(/\r$/, ""));
    lineNo++;
  }
  return { lines, totalLines: lineNo - 1 };
}

function checkText(abs: string, head: Uint8Array): void {
  if (imageMime(abs, head)) throw new ImageFileFound(abs);
}

function decode(decoder: TextDecoder, bytes: Uint8Array, stream: boolean, given: string): string {
  try {
    return decoder.decode(bytes, { stream });
  } catch {
    throw new ToolError(`Cannot read "${given}": file is not UTF-8 text`);
  }
}
