import { isAbsolute, join } from "node:path";
import type { FileChangeView, FileReadView } from "./tool_view_types.ts";

type Fields = Record<string, unknown>;

/** An absolute path for one a tool reported relative to the workspace, when the workspace is known. */
function absolute(path: string, cwd: string | undefined): string {
  return isAbsolute(path) || cwd === undefined ? path : join(cwd, path);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** One change; `shown` is the path as the tool reported it, `path` the absolute one. */
function change(
  shown: string,
  cwd: string | undefined,
  rest: Omit<FileChangeView, "path" | "displayPath">,
): FileChangeView {
  return { path: absolute(shown, cwd), displayPath: shown, ...rest };
}

function lines(text: string): string[] {
  if (text === "") return [];
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
}

/** `--- a` / `+++ b` headers, one hunk header, then the lines. */
function diffOf(from: string, to: string, hunk: string, body: string[]): string {
  return [`--- ${from}`, `+++ ${to}`, hunk, ...body].join("\n") + "\n";
}

/** The file changes of `fs.apply_patch`: from its output, or the patch headers before it ran. */
export function patchChanges(input: Fields, output: Fields | undefined, cwd?: string) {
  if (output && Array.isArray(output.changes)) {
    return (output.changes as Fields[]).map((c) => {
      const moved = str(c.movePath);
      return change(String(c.path), cwd, {
        kind: c.kind === "add" ? "add" : c.kind === "delete" ? "delete" : "update",
        diff: str(c.diff) ?? "",
        ...(moved ? { movedTo: absolute(moved, cwd) } : {}),
      });
    });
  }
  const kinds = { Add: "add", Delete: "delete", Update: "update" } as const;
  const headers = String(input.patch ?? "").matchAll(/^\*\*\* (Add|Delete|Update) File: (.+)$/gm);
  return [...headers].map((m) =>
    change(m[2].trim(), cwd, { kind: kinds[m[1] as keyof typeof kinds], diff: "" })
  );
}

/** `fs.write` and `fs.edit`: one file, its diff from the output. */
export function writeChanges(
  input: Fields,
  output: Fields | undefined,
  cwd?: string,
): FileChangeView[] {
  const shown = str(output?.path) ?? str(input.path) ?? "";
  const view = change(shown, cwd, {
    kind: output?.created === true ? "add" : "update",
    diff: str(output?.diff) ?? "",
  });
  const abs = str(output?.absolutePath);
  return [abs ? { ...view, path: abs } : view];
}

/**
 * `fs.str_replace_editor`'s edits. Its output is the editor's text, not a diff, so the diff is
 * made from the input: a created file in full, an insertion at its line, a replacement as the
 * old and new text under a hunk header without line numbers (the output does not say where).
 */
export function editorChanges(
  input: Fields,
  output: Fields | undefined,
  cwd?: string,
): FileChangeView[] {
  const shown = str(output?.path) ?? str(input.path) ?? "";
  const added = (text: string) => lines(text).map((l) => `+${l}`);
  switch (input.command) {
    case "create": {
      const body = added(str(input.file_text) ?? "");
      const diff = diffOf("/dev/null", shown, `@@ -0,0 +1,${body.length} @@`, body);
      return [change(shown, cwd, { kind: "add", diff })];
    }
    case "str_replace": {
      const body = [
        ...lines(str(input.old_str) ?? "").map((l) => `-${l}`),
        ...added(str(input.new_str) ?? ""),
      ];
      return [change(shown, cwd, { kind: "update", diff: diffOf(shown, shown, "@@", body) })];
    }
    case "insert": {
      const after = num(input.insert_line) ?? 0;
      const body = added(str(input.new_str) ?? "");
      const hunk = `@@ -${after},0 +${after + 1},${body.length} @@`;
      return [change(shown, cwd, { kind: "update", diff: diffOf(shown, shown, hunk, body) })];
    }
    default:
      return [change(shown, cwd, { kind: "update", diff: "" })];
  }
}

/**
 * `fs.notebook_edit`: an inserted cell's source as added lines; a replaced or deleted cell's
 * old source is not in the output, so those carry a summary instead of a diff.
 */
export function notebookChanges(
  input: Fields,
  output: Fields | undefined,
  cwd?: string,
): FileChangeView[] {
  const shown = str(output?.path) ?? str(input.path) ?? "";
  const mode = str(output?.editMode) ?? str(input.edit_mode) ?? "replace";
  const index = num(output?.cellIndex) ?? num(input.cell_number);
  const cell = index === undefined ? "a cell" : `cell ${index}`;
  const summary = `${mode} ${cell}${output?.cellType ? ` (${output.cellType})` : ""}`;
  if (mode !== "insert" || index === undefined) {
    return [change(shown, cwd, { kind: "update", diff: "", summary })];
  }
  const body = lines(str(output?.newSource) ?? str(input.new_source) ?? "").map((l) => `+${l}`);
  const diff = diffOf(shown, shown, `@@ cell ${index} @@`, body);
  return [change(shown, cwd, { kind: "update", diff, summary })];
}

/** `fs.read`, or `fs.str_replace_editor view`: the file and the window of lines read. */
export function readView(
  input: Fields,
  output: Fields | undefined,
  cwd?: string,
): Omit<FileReadView, "kind"> {
  const shown = str(output?.path) ?? str(input.path) ?? "";
  const path = str(output?.absolutePath) ?? absolute(shown, cwd);
  if (output && Array.isArray(output.lines)) {
    const startLine = num(output.startLine) ?? 1;
    return {
      path,
      displayPath: shown,
      startLine,
      endLine: startLine + output.lines.length - 1,
      totalLines: num(output.totalLines),
    };
  }
  const range = Array.isArray(input.view_range) ? input.view_range as number[] : undefined;
  const start = num(input.offset) ?? range?.[0];
  const limit = num(input.limit);
  const end = range?.[1] !== undefined && range[1] !== -1
    ? range[1]
    : start !== undefined && limit !== undefined
    ? start + limit - 1
    : undefined;
  return { path, displayPath: shown, startLine: start, endLine: end };
}
