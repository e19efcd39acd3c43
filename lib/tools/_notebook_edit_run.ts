/**
 * What `fs.notebook_edit` does (notebook_edit.ts), loaded on its first call: read the notebook,
 * change one cell, and write it back atomically in its own layout.
 */
import { extname } from "node:path";
import { ToolError } from "../errors.ts";
import { atomicWrite } from "./_atomic_write.ts";
import { decodeText, fsOf } from "./_fs.ts";
import { displayPath, resolvePath } from "./_paths.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import type { ToolContext } from "./types.ts";

type Cell = Record<string, unknown>;

/** The checked input of `fs.notebook_edit`. */
export interface NotebookEditInput {
  path: string;
  cell_id?: string;
  cell_number?: number;
  new_source?: string;
  cell_type?: "code" | "markdown";
  edit_mode?: EditMode;
}
type Input = NotebookEditInput;
/** How a cell is changed. */
export type EditMode = "replace" | "insert" | "delete";

/** Result of `fs.notebook_edit`. */
export interface FsNotebookEditOutput {
  /** Relative to the workspace when inside it. */
  path: string;
  /** The edited, inserted or deleted cell's id; `cell-N` when the notebook has no cell ids. */
  cellId: string;
  /** Its index, from 0 (where it was, for delete). */
  cellIndex: number;
  editMode: EditMode;
  cellType: "code" | "markdown" | "raw";
  /** The source written; "" for delete. */
  newSource: string;
  /** Cells in the notebook after the edit. */
  cellCount: number;
}

/** Replaces, inserts or deletes the cell `input` names (see `fsNotebookEdit`). */
export async function editNotebook(
  input: Input,
  ctx: ToolContext,
): Promise<FsNotebookEditOutput> {
  const abs = resolvePath(ctx.cwd, input.path);
  if (extname(abs).toLowerCase() !== ".ipynb") {
    throw new ToolError(
      `Cannot edit "${input.path}": not a Jupyter notebook (.ipynb file)`,
      "Edit other files with the file edit tool",
    );
  }
  const fs = fsOf(ctx);
  const text = await readNotebook(fs, abs, input.path);
  const nb = parseNotebook(text, input.path);
  const mode: EditMode = input.edit_mode ?? "replace";
  const result = applyCellEdit(nb, input, mode);
  ctx.signal.throwIfAborted();
  await atomicWrite(abs, formatLike(text, nb), { fs });
  return { path: displayPath(ctx.cwd, abs), ...result, cellCount: nb.cells.length };
}

interface Notebook {
  cells: Cell[];
  nbformat?: unknown;
  nbformat_minor?: unknown;
  [key: string]: unknown;
}

async function readNotebook(fs: FileSystem, abs: string, given: string): Promise<string> {
  try {
    return decodeText(await fs.readFile(abs));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ToolError(`Cannot edit "${given}": notebook does not exist`, "Check the path");
    }
    if (err instanceof Deno.errors.IsADirectory) {
      throw new ToolError(`Cannot edit "${given}": it is a directory`, "Give a .ipynb file");
    }
    throw err;
  }
}

function parseNotebook(text: string, given: string): Notebook {
  let nb: unknown;
  try {
    nb = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new ToolError(
      `Cannot edit "${given}": the notebook is not valid JSON: ${(err as Error).message}`,
      "Fix the file or write it anew",
    );
  }
  if (typeof nb !== "object" || nb === null || !Array.isArray((nb as Notebook).cells)) {
    throw new ToolError(
      `Cannot edit "${given}": the notebook has no "cells" list`,
      "Check that this is a Jupyter notebook (nbformat 4)",
    );
  }
  return nb as Notebook;
}

/** Applies the edit to `nb.cells` in place. */
function applyCellEdit(
  nb: Notebook,
  input: Input,
  mode: EditMode,
): Omit<FsNotebookEditOutput, "path" | "cellCount"> {
  const cells = nb.cells;
  const at = targetIndex(cells, input, mode);
  if (mode === "delete") {
    const [gone] = cells.splice(at, 1);
    return {
      cellId: idOf(gone, at),
      cellIndex: at,
      editMode: mode,
      cellType: typeOf(gone),
      newSource: "",
    };
  }
  if (input.new_source === undefined) {
    throw new ToolError(`Cannot ${mode} a cell: missing new_source`, "Give the cell's new source");
  }
  if (mode === "insert" || at === cells.length) {
    const type = input.cell_type ?? "code";
    const cell = newCell(type, input.new_source, hasCellIds(nb) ? freshId(cells) : undefined);
    cells.splice(at, 0, cell);
    return {
      cellId: idOf(cell, at),
      cellIndex: at,
      editMode: "insert",
      cellType: type,
      newSource: input.new_source,
    };
  }
  const old = cells[at];
  const type = input.cell_type ?? typeOf(old);
  cells[at] = replacedCell(old, type, input.new_source);
  return {
    cellId: idOf(old, at),
    cellIndex: at,
    editMode: mode,
    cellType: type,
    newSource: input.new_source,
  };
}

/** The index the edit applies at; for insert, where the new cell goes. */
function targetIndex(cells: Cell[], input: Input, mode: EditMode): number {
  if (input.cell_id !== undefined) {
    let at = cells.findIndex((c) => c.id === input.cell_id);
    const positional = /^cell-(\d+)$/.exec(input.cell_id);
    if (at === -1 && positional && Number(positional[1]) < cells.length) at = Number(positional[1]);
    if (at === -1) {
      const ids = cells.map((c, i) => idOf(c, i));
      throw new ToolError(
        `Cannot edit the notebook: cell "${input.cell_id}" not found`,
        `Cell ids: ${ids.slice(0, 50).join(", ")}${ids.length > 50 ? ", …" : ""}`,
      );
    }
    return mode === "insert" ? at + 1 : at;
  }
  if (input.cell_number === undefined) {
    if (mode === "insert") return 0;
    throw new ToolError(
      `Cannot ${mode} a cell: no cell given`,
      "Give cell_id (or cell_number) of the cell to change",
    );
  }
  // Replacing the cell just past the end appends one, as Claude's NotebookEdit does.
  const last = mode === "delete" ? cells.length - 1 : cells.length;
  if (input.cell_number > last) {
    throw new ToolError(
      `Cannot ${mode} cell ${input.cell_number}: the notebook has ${cells.length} cells`,
      `Use a cell_number from 0 to ${Math.max(last, 0)}`,
    );
  }
  return input.cell_number;
}

function newCell(type: "code" | "markdown", source: string, id: string | undefined): Cell {
  const cell: Cell = { cell_type: type };
  if (type === "code") cell.execution_count = null;
  if (id !== undefined) cell.id = id;
  cell.metadata = {};
  if (type === "code") cell.outputs = [];
  cell.source = sourceLines(source);
  return cell;
}

/** The cell with new source and type; code cells lose their now stale outputs. */
function replacedCell(old: Cell, type: "code" | "markdown" | "raw", source: string): Cell {
  const cell: Cell = { ...old, cell_type: type };
  cell.source = typeof old.source === "string" ? source : sourceLines(source);
  delete cell.outputs;
  delete cell.execution_count;
  if (type === "code") Object.assign(cell, { execution_count: null, outputs: [] });
  return Object.fromEntries(Object.entries(cell).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}

/** Source as Jupyter stores it: lines, each keeping its `\n`. */
function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Cell ids exist from nbformat 4.5 on; older notebooks must not get them. */
function hasCellIds(nb: Notebook): boolean {
  const major = Number(nb.nbformat);
  return major > 4 || (major === 4 && Number(nb.nbformat_minor) >= 5) ||
    nb.cells.some((c) => typeof c.id === "string");
}

function freshId(cells: Cell[]): string {
  for (;;) {
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
    if (!cells.some((c) => c.id === id)) return id;
  }
}

function idOf(cell: Cell, index: number): string {
  return typeof cell.id === "string" ? cell.id : `cell-${index}`;
}

function typeOf(cell: Cell): "code" | "markdown" | "raw" {
  return cell.cell_type === "markdown" || cell.cell_type === "raw" ? cell.cell_type : "code";
}

/** `nb` serialised in the layout of `original`: its indentation, line endings and final newline. */
export function formatLike(original: string, nb: unknown): string {
  const indent = /^\uFEFF?\{\r?\n([ \t]+)/.exec(original)?.[1];
  let out = JSON.stringify(nb, null, indent);
  if (/\n\s*$/.test(original)) out += "\n";
  if (original.includes("\r\n")) out = out.replaceAll("\n", "\r\n");
  return original.startsWith("\uFEFF") ? `\uFEFF${out}` : out;
}
