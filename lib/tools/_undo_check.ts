/** Undo's check that a file still holds what the edit wrote, and the question when it does not. */
import { ToolError } from "../errors.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import type { ToolContext } from "./capability.ts";
import { type EditHistoryEntry, sha256Hex } from "./_edit_history.ts";
import { askTheUser } from "./ask_user.ts";

const KEEP = "Keep the file";
const UNDO_ANYWAY = "Undo anyway";

/**
 * Returns when undoing `edit` of `path` may go ahead: the file holds exactly what the edit wrote
 * (its SHA-256 is the one recorded), or the user, asked through `ctx.askUser`, says to undo
 * anyway. Otherwise throws a ToolError saying undo was not applied. An undo history can come
 * from a session file, which may be forged, so an edit without a recorded hash is never trusted.
 */
export async function confirmUndo(
  path: string,
  edit: EditHistoryEntry,
  on: { fs: FileSystem; ctx: ToolContext },
): Promise<void> {
  const doubt = await undoDoubt(on.fs, path, edit);
  if (doubt === undefined) return;
  const effect = edit.before === null
    ? "delete the file"
    : "replace the whole file with its content from before the edit";
  const asked = on.ctx.askUser !== undefined;
  if (asked && await userSaysUndo(on.ctx, path, { doubt, effect })) return;
  throw new ToolError(
    `Cannot undo the last edit to ${path}: ${doubt}${
      asked ? ", and the user chose to keep the file" : ""
    }; undo was not applied`,
    "View the file and edit it to the content you want instead",
  );
}

/** Why the file may not be what the edit left, or undefined when it is. */
async function undoDoubt(
  fs: FileSystem,
  path: string,
  edit: EditHistoryEntry,
): Promise<string | undefined> {
  if (edit.wroteSha256 === undefined) {
    return "the undo history does not record what that edit wrote (it was saved by an older " +
      "version), so the file cannot be checked";
  }
  const now = await sha256Hex(await fs.readFile(path));
  if (now === edit.wroteSha256) return undefined;
  return "the file changed since that edit (it no longer holds what the edit wrote)";
}

async function userSaysUndo(
  ctx: ToolContext,
  path: string,
  why: { doubt: string; effect: string },
): Promise<boolean> {
  const doubt = why.doubt[0].toUpperCase() + why.doubt.slice(1);
  const replies = await askTheUser(ctx, [{
    id: "undo_edit",
    header: "Undo edit",
    question: `Undo the last edit to "${path}"? ${doubt}. Undoing would ${why.effect}.`,
    options: [
      { label: KEEP, description: "Leave the file as it is; undo is not applied" },
      { label: UNDO_ANYWAY, description: `${why.effect[0].toUpperCase()}${why.effect.slice(1)}` },
    ],
    multiSelect: false,
  }]);
  return replies?.[0]?.answers.includes(UNDO_ANYWAY) ?? false;
}
