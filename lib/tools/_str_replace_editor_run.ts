/**
 * What `fs.str_replace_editor` does (str_replace_editor.ts), loaded on its first call: the
 * editor's commands on the session's file system, with the vendor's result texts.
 */
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { atomicWrite } from "./_atomic_write.ts";
import { decodeText, fsOf } from "./_fs.ts";
import { resolvePath } from "./_paths.ts";
import { confirmUndo } from "./_undo_check.ts";
import { editHistoryOf, editsOf, pushEdit, sha256Hex } from "./_edit_history.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";

/** Lines of context shown around an edit. */
const SNIPPET_LINES = 4;

/** Input of `fs.str_replace_editor` (checked by its schema in str_replace_editor.ts). */
export interface StrReplaceEditorInput {
  command: "view" | "create" | "str_replace" | "insert" | "undo_edit";
  path: string;
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  view_range?: number[];
}

/** Result of `fs.str_replace_editor`: the editor's text for the model. */
export interface StrReplaceEditorOutput {
  command: StrReplaceEditorInput["command"];
  /** Absolute path the command acted on. */
  path: string;
  output: string;
}

/** Runs one editor command (see `strReplaceEditor`). */
export async function runStrReplaceEditor(
  input: StrReplaceEditorInput,
  ctx: ToolContext,
): Promise<StrReplaceEditorOutput> {
  const path = resolvePath(ctx.cwd, input.path);
  const fs = fsOf(ctx);
  const kind = await pathKind(fs, path);
  if (input.command === "create") {
    if (kind !== "missing") {
      throw new ToolError(
        `File already exists at: ${path}. Cannot overwrite files using command \`create\`.`,
      );
    }
  } else if (kind === "missing") {
    throw new ToolError(`The path ${path} does not exist. Please provide a valid path.`);
  } else if (kind === "dir" && input.command !== "view") {
    throw new ToolError(
      `The path ${path} is a directory and only the \`view\` command can be used on directories`,
    );
  }
  const output = await COMMANDS[input.command](input, { path, fs, ctx, isDir: kind === "dir" });
  return { command: input.command, path, output };
}

/** What a command acts on: the absolute path, the session's file system, and the context. */
interface Target {
  path: string;
  fs: FileSystem;
  ctx: ToolContext;
  isDir: boolean;
}

type Command = (input: StrReplaceEditorInput, target: Target) => Promise<string>;

const COMMANDS: Record<StrReplaceEditorInput["command"], Command> = {
  async view(input, { path, fs, isDir }) {
    if (isDir) {
      if (input.view_range) {
        throw new ToolError(
          "The `view_range` parameter is not allowed when `path` points to a directory.",
        );
      }
      const entries = await listTwoLevels(fs, path);
      return `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${
        [path, ...entries].join("\n")
      }\n`;
    }
    const lines = splitLines(decodeText(await fs.readFile(path)));
    const [start, end] = viewWindow(input.view_range, lines.length);
    return `Here's the result of running \`cat -n\` on ${path}:\n${
      catN(lines.slice(start - 1, end), start)
    }\n`;
  },
  async create(input, { path, fs, ctx }) {
    const text = required(input.file_text, "file_text", "create");
    await atomicWrite(path, text, { fs });
    await pushHistory(ctx, fs, path, { before: null, wrote: text });
    return `File created successfully at: ${path}`;
  },
  async str_replace(input, { path, fs, ctx }) {
    const oldStr = required(input.old_str, "old_str", "str_replace");
    const newStr = input.new_str ?? "";
    const text = decodeText(await fs.readFile(path));
    const at = occurrences(text, oldStr);
    if (at.length === 0) {
      throw new ToolError(
        `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`,
      );
    }
    if (at.length > 1) {
      const lines = at.map((i) => lineOf(text, i));
      throw new ToolError(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${
          JSON.stringify(lines).replaceAll(",", ", ")
        }. Please ensure it is unique`,
      );
    }
    const updated = text.slice(0, at[0]) + newStr + text.slice(at[0] + oldStr.length);
    await atomicWrite(path, updated, { fs });
    await pushHistory(ctx, fs, path, { before: text, wrote: updated });
    const first = lineOf(text, at[0]);
    const snippet = snippetAround(updated, first, newStr);
    return `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${snippet}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`;
  },
  async insert(input, { path, fs, ctx }) {
    const after = required(input.insert_line, "insert_line", "insert");
    const newStr = required(input.new_str, "new_str", "insert");
    const text = decodeText(await fs.readFile(path));
    const lines = splitLines(text);
    if (after < 0 || after > lines.length) {
      throw new ToolError(
        `Invalid \`insert_line\` parameter: ${after}. It should be within the range of lines of the file: [0, ${lines.length}]`,
      );
    }
    const inserted = splitLines(newStr);
    const next = [...lines.slice(0, after), ...inserted, ...lines.slice(after)];
    const updated = next.join("\n") + (text.endsWith("\n") || text === "" ? "\n" : "");
    await atomicWrite(path, updated, { fs });
    await pushHistory(ctx, fs, path, { before: text, wrote: updated });
    const snippet = snippetAround(updated, after + 1, newStr);
    return `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}\nReview the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.`;
  },
  async undo_edit(_input, { path, fs, ctx }) {
    const history = editsOf(editHistoryOf(ctx), path);
    if (!history.length) throw new ToolError(`No edit history found for ${path}.`);
    const last = history.at(-1)!;
    const { before: previous, real } = last;
    const now = await fs.realPath(path);
    if (now !== real) {
      throw new ToolError(
        `Cannot undo the last edit to ${path}: the path now leads to "${now}", not to the file ` +
          `that was edited ("${real}")`,
        "A folder on the path was replaced since the edit; restore it, or edit the file directly",
      );
    }
    await confirmUndo(path, last, { fs, ctx });
    history.pop();
    if (previous === null) {
      await fs.remove(path);
      return `Last edit to ${path} undone successfully. The file was removed.`;
    }
    await atomicWrite(path, previous, { fs });
    return `Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${
      catN(splitLines(previous), 1)
    }\n`;
  },
};

function required<T>(value: T | undefined, name: string, command: string): T {
  if (value === undefined) {
    throw new ToolError(`Parameter \`${name}\` is required for command: ${command}`);
  }
  return value;
}

/** Lines of `text` without the final newline's empty tail. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** `cat -n` numbering: the number right-aligned in six columns, a tab, the line. */
function catN(lines: string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join("\n");
}

function viewWindow(range: number[] | undefined, total: number): [number, number] {
  if (!range) return [1, total];
  const shown = `[${range.join(", ")}]`;
  if (range.length !== 2) {
    throw new ToolError("Invalid `view_range`. It should be a list of two integers.");
  }
  const [start, end] = range;
  if (start < 1 || start > Math.max(total, 1)) {
    throw new ToolError(
      `Invalid \`view_range\`: ${shown}. Its first element \`${start}\` should be within the range of lines of the file: [1, ${total}]`,
    );
  }
  if (end === -1) return [start, total];
  if (end > total) {
    throw new ToolError(
      `Invalid \`view_range\`: ${shown}. Its second element \`${end}\` should be smaller than the number of lines in the file: \`${total}\``,
    );
  }
  if (end < start) {
    throw new ToolError(
      `Invalid \`view_range\`: ${shown}. Its second element \`${end}\` should be larger or equal than its first \`${start}\``,
    );
  }
  return [start, end];
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** 1-based line number of character offset `index`. */
function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** Numbered lines around an edit that starts at line `first` and spans `inserted`. */
function snippetAround(updated: string, first: number, inserted: string): string {
  const lines = splitLines(updated);
  const start = Math.max(1, first - SNIPPET_LINES);
  const end = Math.min(lines.length, first + inserted.split("\n").length - 1 + SNIPPET_LINES);
  return catN(lines.slice(start - 1, end), start);
}

/**
 * Records the content before an edit, the real path the edit wrote, which `undo_edit` checks
 * so that a folder swapped for a symlink since then cannot redirect the undo elsewhere, and the
 * hash of what it wrote, which `undo_edit` checks so that it never reverts what it did not write.
 */
async function pushHistory(
  ctx: ToolContext,
  fs: FileSystem,
  path: string,
  edit: { before: string | null; wrote: string },
): Promise<void> {
  pushEdit(editHistoryOf(ctx), path, {
    before: edit.before,
    real: await fs.realPath(path),
    wroteSha256: await sha256Hex(new TextEncoder().encode(edit.wrote)),
  });
}

async function pathKind(fs: FileSystem, path: string): Promise<"file" | "dir" | "missing"> {
  try {
    return (await fs.stat(path)).isDirectory ? "dir" : "file";
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "missing";
    throw err;
  }
}

/** Paths up to two levels below `dir`, hidden entries left out, in `find` order (sorted). */
async function listTwoLevels(fs: FileSystem, dir: string, depth = 1): Promise<string[]> {
  const names: Array<{ name: string; isDir: boolean }> = [];
  for (const e of await fs.readDir(dir)) {
    if (!e.name.startsWith(".")) names.push({ name: e.name, isDir: e.isDirectory });
  }
  names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const out: string[] = [];
  for (const { name, isDir } of names) {
    out.push(join(dir, name));
    if (isDir && depth < 2) {
      for (const sub of await listTwoLevels(fs, join(dir, name), depth + 1)) out.push(sub);
    }
  }
  return out;
}
