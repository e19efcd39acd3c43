import { z } from "zod";
import type { ToolContext } from "./capability.ts";

/**
 * Key in `ToolContext.state` of `fs.str_replace_editor`'s undo history: an object from path to
 * that file's edits, oldest first, paths from least to most recently edited.
 */
export const EDIT_HISTORY_KEY = "fs.str_replace_editor.history";

/** One edit: the content before it (null: the file did not exist) and the real path edited. */
export const editHistoryEntrySchema = z.object({
  before: z.string().nullable(),
  real: z.string(),
});

/** One edit of the undo history. */
export type EditHistoryEntry = z.infer<typeof editHistoryEntrySchema>;

/** The whole undo history. */
export const editHistorySchema = z.record(z.string(), z.array(editHistoryEntrySchema));

/** The whole undo history. */
export type EditHistory = z.infer<typeof editHistorySchema>;

/** The session's undo history, created on first use. */
export function editHistoryOf(ctx: ToolContext): EditHistory {
  let history = ctx.state.get(EDIT_HISTORY_KEY) as EditHistory | undefined;
  if (!history) ctx.state.set(EDIT_HISTORY_KEY, history = {});
  return history;
}

/** The edits of `path`, oldest first; empty when there are none. */
export function editsOf(history: EditHistory, path: string): EditHistoryEntry[] {
  return Object.hasOwn(history, path) ? history[path] : [];
}

/** Appends `entry` to the edits of `path` and marks the path as the latest edited. */
export function pushEdit(history: EditHistory, path: string, entry: EditHistoryEntry): void {
  const edits = editsOf(history, path);
  delete history[path];
  history[path] = [...edits, entry];
}

/**
 * The undo history with at most `maxBytes` of saved content (UTF-16 code units, near enough):
 * the latest edits of the latest edited files are kept, older ones dropped, so that an undo
 * after a resume reaches back as far as the budget allows and never skips an edit.
 */
export function cappedEditHistory(history: EditHistory, maxBytes: number): EditHistory {
  let left = maxBytes;
  const kept: [string, EditHistoryEntry[]][] = [];
  for (const [path, edits] of Object.entries(history).reverse()) {
    const recent: EditHistoryEntry[] = [];
    for (let i = edits.length - 1; i >= 0; i--) {
      const cost = (edits[i].before?.length ?? 0) + edits[i].real.length;
      if (cost > left) break;
      left -= cost;
      recent.unshift(edits[i]);
    }
    if (recent.length) kept.unshift([path, recent]);
  }
  return Object.fromEntries(kept);
}
