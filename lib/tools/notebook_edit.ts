import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { FsNotebookEditOutput } from "./_notebook_edit_run.ts";

export type { FsNotebookEditOutput } from "./_notebook_edit_run.ts";

/**
 * Input of `fs.notebook_edit`: the union of Claude `NotebookEdit` and Qwen `notebook_edit` (map
 * `notebook_path` → `path`; the other names are the same). `new_source` is required except for
 * `delete`. A cell is picked by `cell_id` (a Jupyter cell id, or `cell-N` for the N-th cell,
 * counting from 0) or by `cell_number` (older Claude spelling, counting from 0); `cell_id` wins.
 */
const fsNotebookEditInput = z.object({
  path: z.string().min(1).describe(
    "Path of the .ipynb file, absolute or relative to the workspace",
  ),
  cell_id: z.string().min(1).optional()
    .describe("Cell to edit; with insert, the new cell goes after it (at the start when omitted)"),
  cell_number: z.number().int().min(0).optional()
    .describe("Cell index from 0; with insert, the new cell's index"),
  new_source: z.string().optional().describe("New source of the cell (not needed for delete)"),
  cell_type: z.enum(["code", "markdown"]).optional()
    .describe("Cell type; default the cell's current type, or code for a new cell"),
  edit_mode: z.enum(["replace", "insert", "delete"]).optional().describe("Default replace"),
});

/**
 * Replaces, inserts or deletes one cell of a Jupyter notebook and writes it back atomically in
 * its own layout (indentation, key order, line endings); everything else in the file is kept.
 * Replacing a code cell clears its outputs and execution count, which no longer match.
 */
export const fsNotebookEdit = defineCapability({
  id: "fs.notebook_edit",
  input: fsNotebookEditInput,
  mutates: true,
  async run(input, ctx): Promise<FsNotebookEditOutput> {
    const { editNotebook } = await import("./_notebook_edit_run.ts");
    return await editNotebook(input, ctx);
  },
});
