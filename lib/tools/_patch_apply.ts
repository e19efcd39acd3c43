import { ToolError } from "../errors.ts";
import { CodedToolError } from "./_coded_error.ts";
import type { Hunk } from "./_patch_parse.ts";

const REREAD_HINT = "Read the file again and copy the lines to change exactly, " +
  "with a few unchanged lines around them";

/** Line comparisons from strict to lenient; each is tried over the whole file before the next. */
const LADDER: Array<(s: string) => string> = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
  (s) => normalizePunctuation(s.trim()),
];

/**
 * Applies update hunks to `text` and returns the new text. Each hunk's old lines are found in
 * order after the previous hunk (exact, then ignoring trailing, then surrounding whitespace);
 * `@@ context` lines anchor the search. CRLF files stay CRLF. Throws ToolError naming `path`.
 */
export function applyHunks(text: string, hunks: Hunk[], path: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.split(/\r?\n/);
  const finalNewline = text === "" || lines[lines.length - 1] === "";
  if (finalNewline && lines.length > 0) lines.pop();
  const edits: Array<{ at: number; remove: number; insert: string[] }> = [];
  let cursor = 0;
  hunks.forEach((hunk, n) => {
    const where = `Cannot apply patch to "${path}": hunk ${n + 1} of ${hunks.length}`;
    if (hunk.context !== undefined) {
      const at = seek(lines, [hunk.context], cursor, false);
      if (at < 0) {
        throw new ToolError(
          `${where}: cannot find the @@ context line "${hunk.context}"`,
          REREAD_HINT,
        );
      }
      cursor = at + 1;
    }
    let oldLines = hunk.oldLines;
    let newLines = hunk.newLines;
    if (oldLines.length === 0) {
      const at = hunk.context !== undefined ? cursor : lines.length;
      edits.push({ at, remove: 0, insert: newLines });
      return;
    }
    let at = seek(lines, oldLines, cursor, hunk.endOfFile);
    if (at < 0 && oldLines[oldLines.length - 1] === "") {
      oldLines = oldLines.slice(0, -1);
      if (newLines[newLines.length - 1] === "") newLines = newLines.slice(0, -1);
      at = seek(lines, oldLines, cursor, hunk.endOfFile);
    }
    if (at < 0) at = seek(lines, oldLines, 0, hunk.endOfFile);
    if (at < 0 || edits.some((e) => at < e.at + e.remove && e.at < at + oldLines.length)) {
      const fields = { path, oldLines: oldLines.join("\n"), hunk: n + 1, hunkCount: hunks.length };
      throw new CodedToolError("lines_not_found", fields, () => ({
        message: `${where}: cannot find these lines${at < 0 ? "" : " after the previous hunk"}:\n` +
          fields.oldLines,
        hint: REREAD_HINT,
      }));
    }
    edits.push({ at, remove: oldLines.length, insert: newLines });
    cursor = at + oldLines.length;
  });
  edits.sort((a, b) => b.at - a.at || b.remove - a.remove);
  for (const e of edits) lines.splice(e.at, e.remove, ...e.insert);
  if (lines.length === 0) return "";
  return lines.join(eol) + (finalNewline ? eol : "");
}

/** Index where `pattern` starts at or after `from`, or -1. With `eof`, the file end is tried first. */
function seek(lines: string[], pattern: string[], from: number, eof: boolean): number {
  const last = lines.length - pattern.length;
  if (last < from) return -1;
  for (const norm of LADDER) {
    const want = pattern.map(norm);
    const matchesAt = (i: number) => want.every((w, k) => norm(lines[i + k]) === w);
    if (eof && matchesAt(last)) return last;
    for (let i = from; i <= last; i++) if (matchesAt(i)) return i;
  }
  return -1;
}

/** Maps typographic punctuation and odd spaces to their ASCII look-alikes. */
function normalizePunctuation(s: string): string {
  return s
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}
