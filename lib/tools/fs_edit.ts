import * as z from "zod";
import { ToolError } from "../errors.ts";
import { CodedToolError, type WireNames } from "./_coded_error.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { atomicWrite } from "./_atomic_write.ts";
import { decodeText, fsOf } from "./_fs.ts";
import type { FileSystem } from "../../sandbox/file_system.ts";
import { displayPath, resolvePath } from "./_paths.ts";
import { readRecordOf, recordRead, unchangedSince } from "./_read_records.ts";
import { unifiedDiff } from "./_unified_diff.ts";

/** Spellings vendors use for the fields of one edit inside an `edits[]` array. */
const EDIT_FIELD_ALIASES: Record<string, "old_string" | "new_string"> = {
  oldText: "old_string",
  old_text: "old_string",
  oldString: "old_string",
  newText: "new_string",
  new_text: "new_string",
  newString: "new_string",
  old: "old_string",
  new: "new_string",
};

/** Nested fields cannot be renamed by a harness's argument mapping, so edits accept each spelling. */
function normalizeEditFields(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [EDIT_FIELD_ALIASES[key] ?? key, v]),
  );
}

const editSchema = z.preprocess(
  normalizeEditFields,
  z.object({
    old_string: z.string().describe("Exact text to replace"),
    new_string: z.string().describe("Replacement text"),
    replace_all: z.boolean().optional().describe("This edit replaces every occurrence (Kimi)"),
  }),
);

/**
 * Input of `fs.edit`. Give either `edits`, or one edit as top-level `old_string` and
 * `new_string` (the shape single-edit tools send).
 */
const fsEditInput = z.object({
  path: z.string().min(1).describe("File path, absolute or relative to the workspace"),
  edits: z.preprocess(
    (v) => typeof v === "object" && v !== null && !Array.isArray(v) ? [v] : v,
    z.array(editSchema).min(1).optional(),
  ).describe("Replacements, applied in order; a single edit object is taken as a list of one"),
  old_string: z.string().optional().describe("Exact text to replace (single edit)"),
  new_string: z.string().optional().describe("Replacement text (single edit)"),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of one"),
  require_read: z.boolean().optional()
    .describe("Refuse unless fs.read read the file this session and it has not changed since"),
});

/** One exact replacement. */
export type Edit = z.infer<typeof editSchema>;

/** Result of `fs.edit`. */
export interface FsEditOutput {
  /** Relative to the workspace when inside it. */
  path: string;
  /** Absolute path of the edited file. */
  absolutePath: string;
  /** Occurrences replaced, over all edits. */
  replacements: number;
  /** How many edits were applied. */
  editCount: number;
  /** Unified diff of the change. */
  diff: string;
  /** The whole text of the file after the edit. */
  fileText: string;
  /** Lines in the edited file. */
  totalLines: number;
}

/**
 * Replaces exact strings in a file. Each edit applies to the text left by the ones before it;
 * without `replace_all` its `old_string` must occur exactly once. A file whose line endings are
 * all CRLF keeps them, whatever endings the strings use. All edits apply or none. Failures a
 * harness may word itself are CodedToolErrors (codes in lib/harness/placeholders.ts).
 */
export const fsEdit = defineCapability({
  id: "fs.edit",
  input: fsEditInput,
  mutates: true,
  spellings: spellingsOf(EDIT_FIELD_ALIASES),
  async run(input, ctx): Promise<FsEditOutput> {
    const edits = editsOf(input);
    const abs = resolvePath(ctx.cwd, input.path);
    const fs = fsOf(ctx);
    const before = await readExisting(fs, abs, input.path);
    if (input.require_read) await checkRead(ctx, fs, abs, input.path);
    const crlf = before.includes("\r\n") && !/(^|[^\r])\n/.test(before);
    let text = crlf ? before.replaceAll("\r\n", "\n") : before;
    let replacements = 0;
    for (const [i, edit] of edits.entries()) {
      const r = applyEdit(text, normalize(edit, crlf), {
        replaceAll: edit.replace_all ?? input.replace_all ?? false,
        site: { given: input.path, abs, index: i, count: edits.length, listed: !!input.edits },
      });
      text = r.text;
      replacements += r.count;
    }
    const after = crlf ? text.replaceAll("\n", "\r\n") : text;
    ctx.signal.throwIfAborted();
    await atomicWrite(abs, after, { fs });
    recordRead(ctx, abs, await fs.stat(abs));
    const path = displayPath(ctx.cwd, abs);
    return {
      path,
      absolutePath: abs,
      replacements,
      editCount: edits.length,
      diff: (await unifiedDiff(path, path, { before, after })).diff,
      fileText: after,
      totalLines: after === "" ? 0 : after.replace(/\r?\n$/, "").split("\n").length,
    };
  },
});

function spellingsOf(aliases: Record<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [alias, field] of Object.entries(aliases)) (out[field] ??= []).push(alias);
  return out;
}

function editsOf(input: z.infer<typeof fsEditInput>): Edit[] {
  const single = input.old_string !== undefined || input.new_string !== undefined;
  if (input.edits && single) {
    throw new ToolError(
      "Cannot edit: give either edits or old_string and new_string, not both",
      "Put every replacement in edits",
    );
  }
  if (input.edits) return input.edits;
  if (input.old_string === undefined || input.new_string === undefined) {
    throw new ToolError(
      `Cannot edit "${input.path}": missing ${
        input.old_string === undefined ? "old_string" : "new_string"
      }`,
      "Give the exact text to replace and its replacement",
    );
  }
  return [{ old_string: input.old_string, new_string: input.new_string }];
}

function normalize(edit: Edit, crlf: boolean): Edit {
  if (!crlf) return edit;
  return {
    ...edit,
    old_string: edit.old_string.replaceAll("\r\n", "\n"),
    new_string: edit.new_string.replaceAll("\r\n", "\n"),
  };
}

/** Which edit of which file a failure is about: the error texts' fields and parameter names. */
export interface EditSite {
  /** The path as the call gave it. */
  given: string;
  abs: string;
  /** 0-based index of the edit, and how many the call has. */
  index: number;
  count: number;
  /** Whether the edits came as a list (`edits`) rather than top-level strings. */
  listed: boolean;
}

/** The wire name of the edit's `old_string` (or `new_string`): `old_string`, `edits[2].oldText`. */
function nameOf(site: EditSite, names: WireNames, field: "old_string" | "new_string"): string {
  if (!site.listed) return names(field) ?? field;
  const nested = names("edits", field) ?? field;
  return site.count > 1 ? `${names("edits") ?? "edits"}[${site.index}].${nested}` : nested;
}

/** A failure of one edit, with the fields every fs.edit error text may use. */
function editError(
  code: string,
  site: EditSite,
  extra: Record<string, unknown>,
  describe: (names: WireNames) => { message: string; hint?: string },
): CodedToolError {
  return new CodedToolError(code, {
    path: site.given,
    absolutePath: site.abs,
    editIndex: site.index,
    editCount: site.count,
    severalEdits: site.count > 1,
    ...extra,
  }, describe);
}

/** Applies one edit to `text`; throws CodedToolError for an empty, missing or ambiguous string. */
function applyEdit(
  text: string,
  edit: Edit,
  opts: { replaceAll: boolean; site: EditSite },
): { text: string; count: number } {
  const { site } = opts;
  const fields = { oldString: edit.old_string };
  const cannot = `Cannot edit "${site.given}"`;
  if (edit.old_string === "") {
    throw editError("empty_string", site, fields, (names) => ({
      message: `${cannot}: ${nameOf(site, names, "old_string")} is empty`,
      hint: "Quote the exact text to replace, or write the whole file instead",
    }));
  }
  if (edit.old_string === edit.new_string) {
    throw editError("no_change", site, fields, (names) => ({
      message: `${cannot}: ${nameOf(site, names, "old_string")} and ${
        nameOf(site, names, "new_string")
      } are identical, so nothing would change`,
      hint: "Give the replacement text you want",
    }));
  }
  const count = text.split(edit.old_string).length - 1;
  if (count === 0) {
    throw editError("string_not_found", site, fields, (names) => ({
      message: `${cannot}: ${nameOf(site, names, "old_string")} not found in the file`,
      hint:
        "Copy the text exactly from the file, whitespace and indentation included, or read it again",
    }));
  }
  if (count > 1 && !opts.replaceAll) {
    throw editError("multiple_matches", site, { ...fields, count }, (names) => {
      const all = names("replace_all") ?? (site.listed ? names("edits", "replace_all") : undefined);
      return {
        message: `${cannot}: ${
          nameOf(site, names, "old_string")
        } occurs ${count} times; it must occur exactly once`,
        hint: `Add surrounding lines to make it unique${
          all ? `, or set ${all} to replace every occurrence` : ""
        }`,
      };
    });
  }
  const next = opts.replaceAll
    ? text.replaceAll(edit.old_string, () => edit.new_string)
    : text.replace(edit.old_string, () => edit.new_string);
  return { text: next, count };
}

async function readExisting(fs: FileSystem, abs: string, given: string): Promise<string> {
  try {
    return decodeText(await fs.readFile(abs));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new CodedToolError("file_not_found", { path: given, absolutePath: abs }, () => ({
        message: `Cannot edit "${given}": file does not exist`,
        hint: "Check the path, or write the whole file to create it",
      }));
    }
    if (err instanceof Deno.errors.IsADirectory) {
      throw new ToolError(`Cannot edit "${given}": it is a directory`, "Edit a file");
    }
    throw err;
  }
}

async function checkRead(
  ctx: ToolContext,
  fs: FileSystem,
  abs: string,
  given: string,
): Promise<void> {
  const record = readRecordOf(ctx, abs);
  const fields = { path: given, absolutePath: abs };
  if (!record) {
    throw new CodedToolError("not_read", fields, () => ({
      message: "File has not been read yet. Read it first before writing to it.",
    }));
  }
  if (!unchangedSince(record, await fs.stat(abs))) {
    throw new CodedToolError("changed_since_read", fields, () => ({
      message: "File has changed since it was last read. Read it again before writing to it.",
    }));
  }
}
