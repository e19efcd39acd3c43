import { isAbsolute, normalize, relative, sep } from "node:path";
import * as z from "zod";
import type { ToolContext } from "./capability.ts";

/**
 * Key in `ToolContext.state` of `fs.str_replace_editor`'s undo history: an object from path to
 * that file's edits, oldest first, paths from least to most recently edited.
 */
export const EDIT_HISTORY_KEY = "fs.str_replace_editor.history";

/**
 * One edit: the content before it (null: the file did not exist), the real path edited, and the
 * SHA-256 (hex) of the content the edit wrote, which undo checks the file against. Entries saved
 * before the hash was kept have none; undo cannot verify those.
 */
const editHistoryEntrySchema = z.object({
  before: z.string().nullable(),
  real: z.string(),
  wroteSha256: z.string().regex(/^[0-9a-f]{64}$/, "expected 64 lower-case hex digits")
    .optional(),
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

/** The SHA-256 of `bytes` as 64 lower-case hex digits. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
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

/** The workspace a restored undo history must stay in. */
export interface UndoWorkspace {
  /** The current workspace, absolute. */
  cwd: string;
  /** `cwd` with symlinks resolved, which recorded real paths are checked against. */
  realCwd: string;
  /** The workspace the session was started in (its header's `cwd`). */
  recordedCwd: string;
}

/**
 * The part of a saved undo history that may be trusted here: nothing when the session was
 * started in another workspace, and of the rest only the files whose path and real path are
 * normalized absolute paths inside the workspace, with well-formed edits. Each file dropped is
 * described to `note`. Whether a file still holds what an edit wrote is checked at undo time.
 */
export function restorableEditHistory(
  saved: unknown,
  workspace: UndoWorkspace,
  note: (message: string) => void,
): EditHistory {
  const { cwd, realCwd, recordedCwd } = workspace;
  const kept: EditHistory = {};
  const files = z.record(z.string(), z.unknown()).safeParse(saved);
  if (!files.success) {
    note("Dropped the saved undo history: it is not an object of file paths");
    return kept;
  }
  if (normalize(recordedCwd) !== normalize(cwd)) {
    note(
      `Dropped the saved undo history: the session was started in "${recordedCwd}", not in ` +
        `this workspace "${cwd}", so its edits cannot be undone here`,
    );
    return kept;
  }
  for (const [path, value] of Object.entries(files.data)) {
    const edits = z.array(editHistoryEntrySchema).safeParse(value);
    const why = !edits.success
      ? `it is not a list of edits (${edits.error.issues[0]?.message ?? "invalid"})`
      : !isInside(cwd, path)
      ? `the path is not inside the workspace "${cwd}"`
      : edits.data.find((e) => !isInside(realCwd, e.real) && !isInside(cwd, e.real))
      ? "an edit's real path is not inside the workspace (a symlink leading out of it?)"
      : undefined;
    if (why === undefined && edits.success) kept[path] = edits.data;
    else note(`Dropped the saved undo entries for "${path}": ${why}`);
  }
  return kept;
}

/** True when `path` is absolute, normalized (no `..`, `.` or `//`) and below `dir`. */
function isInside(dir: string, path: string): boolean {
  if (!isAbsolute(path) || normalize(path) !== path) return false;
  const rel = relative(dir, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
