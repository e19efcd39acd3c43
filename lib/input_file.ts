/**
 * Reading a file the user named, on the command line or in config. Only a regular file of
 * bounded size is read: `/dev/zero` would be read forever, a FIFO would block the start, and a
 * directory or socket cannot be read at all.
 */
import { UserError } from "./errors.ts";

/** The size limit of an input file unless the caller sets another. */
export const MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024;

/** MAX_INPUT_FILE_BYTES for messages: "4 MB". */
export const MAX_INPUT_FILE_BYTES_TEXT = `${MAX_INPUT_FILE_BYTES / (1024 * 1024)} MB`;

/** What an input file is, for the message that refuses it. */
export interface InputFileOptions {
  /** Its role, for messages: "output schema file", "config file". */
  what: string;
  /** Longer files are refused; MAX_INPUT_FILE_BYTES when not given. */
  maxBytes?: number;
  /** Read only the first `maxBytes` of a longer file instead of refusing it. */
  truncate?: boolean;
}

/** A named input file that is missing, not a regular file, too large or unreadable. Exit 2. */
export class InputFileError extends UserError {
  /** What is wrong, to follow `Cannot read FILE: ` in a caller's own message. */
  readonly reason: string;
  /** True when the file does not exist, which some callers accept. */
  readonly missing: boolean;
  constructor(
    at: { what: string; file: string },
    reason: string,
    opts: { hint: string; missing?: boolean; cause?: unknown },
  ) {
    super(`Cannot read ${at.what} "${at.file}": ${reason}`, { ...opts, exitCode: 2 });
    this.reason = reason;
    this.missing = opts.missing ?? false;
  }
}

/** The bytes of regular file `file`, at most `maxBytes` of them; anything else is refused. */
export async function readInputFile(file: string, opts: InputFileOptions): Promise<Uint8Array> {
  const maxBytes = opts.maxBytes ?? MAX_INPUT_FILE_BYTES;
  const at = { what: opts.what, file };
  const hint = `Name a regular file of at most ${sizeText(maxBytes)}`;
  const fail = (reason: string, cause?: unknown): never => {
    const missing = cause instanceof Deno.errors.NotFound;
    throw new InputFileError(at, reason, { hint, missing, cause });
  };
  const info = await Deno.stat(file).catch((error) => fail(firstLine(error), error));
  if (!info.isFile) fail(`it is ${kindOf(info)}, not a regular file`);
  if (info.size > maxBytes && !opts.truncate) fail(tooLarge(info.size, maxBytes));
  try {
    using handle = await Deno.open(file, { read: true });
    // The path may have been swapped since the stat; the open file is what counts.
    const opened = await handle.stat();
    if (!opened.isFile) fail(`it is ${kindOf(opened)}, not a regular file`);
    const bytes = await readAtMost(handle, maxBytes + 1);
    if (bytes.length <= maxBytes) return bytes;
    if (opts.truncate) return bytes.subarray(0, maxBytes);
    return fail(`it grew past the limit of ${sizeText(maxBytes)} while it was read`);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    return fail(firstLine(error), error);
  }
}

/** The text of regular file `file` (UTF-8), as `readInputFile` reads it. */
export async function readInputText(file: string, opts: InputFileOptions): Promise<string> {
  return new TextDecoder().decode(await readInputFile(file, opts));
}

async function readAtMost(handle: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < limit) {
    const chunk = new Uint8Array(Math.min(64 * 1024, limit - length));
    const read = await handle.read(chunk);
    if (read === null) break;
    chunks.push(chunk.subarray(0, read));
    length += read;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a file";
}

function tooLarge(size: number, maxBytes: number): string {
  return `it is ${sizeText(size)}, over the limit of ${sizeText(maxBytes)}`;
}

function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${bytes} bytes`;
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}

/**
 * The first `maxBytes` of a text file found by name (AGENTS.md, CLAUDE.md), or "" when it is
 * missing, unreadable or not a regular file: a FIFO planted under that name cannot stall a start.
 */
export async function readTextPrefix(file: string, maxBytes: number): Promise<string> {
  return await readInputText(file, { what: "file", maxBytes, truncate: true }).catch(() => "");
}
