import * as z from "zod";
import { defineCapability } from "./capability.ts";
import type { StrReplaceEditorOutput } from "./_str_replace_editor_run.ts";

export type { StrReplaceEditorInput, StrReplaceEditorOutput } from "./_str_replace_editor_run.ts";

/** Input of `fs.str_replace_editor`: one editor command (the SWE-agent / OpenHands editor). */
const strReplaceEditorInput = z.object({
  command: z.enum(["view", "create", "str_replace", "insert", "undo_edit"]),
  path: z.string().min(1).describe("File or directory, absolute or relative to the workspace"),
  file_text: z.string().optional().describe("Content of the new file (create)"),
  old_str: z.string().optional().describe("Exact text to replace; must occur once (str_replace)"),
  new_str: z.string().optional().describe("Replacement (str_replace) or text to insert (insert)"),
  insert_line: z.number().int().optional().describe("Insert after this line; 0 = at the top"),
  view_range: z.array(z.number().int()).optional()
    .describe("[start, end] lines to view, 1-based; end -1 means to the end (view)"),
});

/**
 * The file editor of SWE-agent and OpenHands: view a file (`cat -n` style) or a directory (two
 * levels), create a file, replace a unique string, insert after a line, and undo the last edit
 * of a file (history kept in `ctx.state`). Result texts follow the vendor's.
 */
export const strReplaceEditor = defineCapability({
  id: "fs.str_replace_editor",
  input: strReplaceEditorInput,
  mutates: true,
  async run(input, ctx): Promise<StrReplaceEditorOutput> {
    const { runStrReplaceEditor } = await import("./_str_replace_editor_run.ts");
    return await runStrReplaceEditor(input, ctx);
  },
});
