import * as z from "zod";
import type { ToolContext } from "./capability.ts";

/**
 * Key in `ToolContext.state` of the files read this session: an object from absolute path to
 * the file's modification time and size when it was last read (or written by a tool). `fs.edit`
 * checks it to enforce read-before-edit; a plain object so that it survives a JSON round trip.
 */
export const READ_RECORDS_KEY = "fs.read.records";

/**
 * Modification time in milliseconds since the epoch (null when the platform has none), size in
 * bytes, and whether the model was shown the whole file then.
 */
export const readRecordSchema = z.object({
  mtimeMs: z.number().nullable(),
  size: z.number().int().min(0),
  whole: z.boolean(),
});

/** One read record. */
export type ReadRecord = z.infer<typeof readRecordSchema>;

/** What a record is compared against: a file's stat. */
export interface StatLike {
  mtime: Date | null;
  size: number;
}

/** Notes that `abs` was read (or written by a tool) when its stat was `stat`. */
export function recordRead(
  ctx: ToolContext,
  abs: string,
  stat: StatLike,
  opts: { whole?: boolean } = {},
): void {
  const all = records(ctx);
  // Re-inserted so that the object lists paths from least to most recently read.
  delete all[abs];
  all[abs] = {
    mtimeMs: stat.mtime?.getTime() ?? null,
    size: stat.size,
    whole: opts.whole ?? false,
  };
}

/** The read record of `abs`, or undefined when it was not read this session. */
export function readRecordOf(ctx: ToolContext, abs: string): ReadRecord | undefined {
  const all = records(ctx);
  return Object.hasOwn(all, abs) ? all[abs] : undefined;
}

/** True when the file's stat is the one recorded: neither its time nor its size changed. */
export function unchangedSince(record: ReadRecord, stat: StatLike): boolean {
  return record.mtimeMs === (stat.mtime?.getTime() ?? null) && record.size === stat.size;
}

function records(ctx: ToolContext): Record<string, ReadRecord> {
  let all = ctx.state.get(READ_RECORDS_KEY) as Record<string, ReadRecord> | undefined;
  if (!all) ctx.state.set(READ_RECORDS_KEY, all = {});
  return all;
}
