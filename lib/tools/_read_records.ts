import type { ToolContext } from "./capability.ts";

/**
 * Key in `ToolContext.state` of the files read this session: a `Map` from absolute path to the
 * file's modification time when it was last read (or written by a tool). `fs.edit` checks it to
 * enforce read-before-edit.
 */
export const READ_RECORDS_KEY = "fs.read.records";

/**
 * Modification time in milliseconds since the epoch (null when the platform has none), and
 * whether the model was shown the whole file then.
 */
export type ReadRecord = { mtimeMs: number | null; whole: boolean };

/** Notes that `abs` was read (or written by a tool) and had modification time `mtime`. */
export function recordRead(
  ctx: ToolContext,
  abs: string,
  mtime: Date | null,
  opts: { whole?: boolean } = {},
): void {
  records(ctx).set(abs, { mtimeMs: mtime?.getTime() ?? null, whole: opts.whole ?? false });
}

/** The read record of `abs`, or undefined when it was not read this session. */
export function readRecordOf(ctx: ToolContext, abs: string): ReadRecord | undefined {
  return records(ctx).get(abs);
}

function records(ctx: ToolContext): Map<string, ReadRecord> {
  let map = ctx.state.get(READ_RECORDS_KEY) as Map<string, ReadRecord> | undefined;
  if (!map) ctx.state.set(READ_RECORDS_KEY, map = new Map());
  return map;
}
