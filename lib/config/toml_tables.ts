/**
 * In-place edits of `[a.b]` tables in TOML text that keep every other byte as it was: comments,
 * blank lines, key order, quoting. A table written as `[a.b]` goes with its subtables
 * (`[a.b.c]`, wherever they are) and the comment lines right above each header; a comment that
 * a blank line separates from the table below it belongs to what follows. Tables set by dotted
 * keys or inline tables are not edited: `tableSetOutsideHeaders()` finds them so that callers
 * can refuse. The callers check the result with the parser.
 */
import { scanToml, type TomlStatement } from "./_toml_scan.ts";

/** A span of the text, [start, end) offsets, and the offset of its header. */
interface TableSpan {
  start: number;
  end: number;
  header: number;
}

/** True when `path` starts with every segment of `prefix`. */
function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** The spans of `[path]`, `[path.x]` and `[[path.x]]` blocks, each with its own comments. */
function tableSpans(statements: TomlStatement[], path: readonly string[]): TableSpan[] {
  const spans: TableSpan[] = [];
  for (const [i, statement] of statements.entries()) {
    if (statement.kind !== "header" || !startsWith(statement.path, path)) continue;
    let first = i;
    while (first > 0 && statements[first - 1].kind === "comment") first--;
    let next = i + 1;
    while (next < statements.length && statements[next].kind !== "header") next++;
    let last = next - 1;
    while (last > i && isTrivia(statements[last])) last--;
    // The trailing blank and comment lines: up to the last blank line they are the table's; the
    // comments after it sit right above the next header and are that header's (at the end of
    // the text, with no blank line, they are the table's).
    let end = next === statements.length ? next : last + 1;
    for (let j = next - 1; j > last; j--) {
      if (statements[j].kind === "blank") {
        end = j + 1;
        break;
      }
    }
    const close = end < statements.length ? statements[end].start : statements[end - 1].end;
    spans.push({ start: statements[first].start, end: close, header: statement.start });
  }
  return spans;
}

function isTrivia(statement: TomlStatement): boolean {
  return statement.kind === "blank" || statement.kind === "comment";
}

/**
 * The text without `spans` (sorted, possibly touching). Cut at its end, it ends in one newline
 * unless `keepEnd`.
 */
function cut(text: string, spans: Array<{ start: number; end: number }>, keepEnd = false): string {
  let out = "";
  let at = 0;
  for (const { start, end } of spans) {
    out += text.slice(at, Math.max(at, start));
    at = Math.max(at, end);
  }
  const rest = text.slice(at);
  if (rest !== "" || keepEnd) return out + rest;
  return out.replace(/(\r?\n)(?:[ \t]*\r?\n)+$/, "$1");
}

/**
 * `text` without the table `path` and its subtables, or undefined when no `[path]` or
 * `[path.x]` header is there.
 */
export function removeTable(text: string, path: readonly string[]): string | undefined {
  const spans = tableSpans(scanToml(text), path);
  return spans.length === 0 ? undefined : cut(text, spans);
}

/** `text` with `table` (whole lines of TOML) at its end, after a blank line. */
export function appendTable(text: string, table: string): string {
  const eol = lineEnding(text);
  const body = asLines(table, eol);
  if (text === "") return body;
  const ended = /\r?\n$/.test(text) ? text : text + eol;
  return /(?:^|\n)[ \t]*\r?\n$/.test(ended) ? ended + body : ended + eol + body;
}

/**
 * `text` with the table `path` and its subtables replaced by `table`, put where `[path]` (or its
 * first subtable) was; undefined when no such header is there.
 */
export function replaceTable(
  text: string,
  path: readonly string[],
  table: string,
): string | undefined {
  const spans = tableSpans(scanToml(text), path);
  if (spans.length === 0) return undefined;
  // The comments above the table stay: they say what it is for.
  const start = spans[0].header;
  spans[0] = { ...spans[0], start };
  const eol = lineEnding(text);
  const body = asLines(table, eol);
  const rest = cut(text, spans, true);
  const after = rest.slice(start);
  const gap = after === "" || /^[ \t]*\r?\n/.test(after) ? "" : eol;
  return rest.slice(0, start) + body + gap + after;
}

/**
 * The 1-based line of the first key/value pair that sets `path` or a part of it other than in a
 * `[path…]` table: a dotted key (`a.b.c = 1`, `b.c = 1` in `[a]`) or an inline table (`b = {…}`
 * in `[a]`, `a = {…}`). Undefined when every part of `path` is set under its own headers.
 */
export function tableSetOutsideHeaders(text: string, path: readonly string[]): number | undefined {
  for (const statement of scanToml(text)) {
    if (statement.kind !== "pair" || startsWith(statement.table, path)) continue;
    const full = [...statement.table, ...statement.key];
    if (startsWith(full, path) || (statement.inline && startsWith(path, full))) {
      return statement.line;
    }
  }
  return undefined;
}

/** `table` with `eol` line endings, ending in exactly one. */
function asLines(table: string, eol: string): string {
  return table.replace(/\r?\n/g, eol).replace(/(?:\r?\n)*$/, eol);
}

/** The text's line ending: CRLF when its first line ends so, else LF. */
function lineEnding(text: string): string {
  const newline = text.indexOf("\n");
  return newline > 0 && text[newline - 1] === "\r" ? "\r\n" : "\n";
}
