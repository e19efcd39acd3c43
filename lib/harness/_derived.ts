import { FORMAT_DERIVED } from "./_formats.ts";
import type { Lookup } from "./_template.ts";

type Output = Record<string, unknown>;
type Derived = (o: Output) => { value: unknown } | undefined;

/**
 * What `{name}` means for output `o`: a field (by its name or snake_case of a camelCase name),
 * a derived value of DERIVED, or `{if_<field>}` / `{unless_<field>}`.
 */
export function outputLookup(o: Output): Lookup {
  return (name) => fieldOf(o, name) ?? DERIVED[name]?.(o) ?? conditional(o, name);
}

/**
 * Derived placeholders of result templates, computed from the capability output; each returns
 * undefined when the output lacks the fields it reads, so it resolves only for its capability.
 */
export const DERIVED: Record<string, Derived> = {
  /** Vendor layouts: see `_formats.ts`. */
  ...FORMAT_DERIVED,
  /** Seconds with four decimals, from `durationMs`. */
  duration_s: (o) =>
    typeof o.durationMs === "number" ? { value: (o.durationMs / 1000).toFixed(4) } : undefined,
  /** A six-digit hex id of one command's output (Codex's `Chunk ID`), stable for equal output. */
  chunk_id: (o) => isShellRun(o) ? { value: chunkId(o) } : undefined,
  /** The output's size in tokens as Codex estimates it: UTF-8 bytes / 4, rounded up. */
  original_token_count: (o) =>
    isShellRun(o)
      ? { value: Math.ceil(new TextEncoder().encode(String(o.output)).length / 4) }
      : undefined,
  /** The command's folder as given, relative to the workspace; `(root)` for the workspace. */
  cwd_or_root: (o) =>
    isShellRun(o) && typeof o.cwd === "string"
      ? { value: o.cwd === "." ? "(root)" : o.cwd }
      : undefined,
  /** Seconds, from `timeoutMs`, only when `timedOut` is true (the line is dropped otherwise). */
  timeout_s: (o) =>
    typeof o.timedOut === "boolean"
      ? { value: o.timedOut && typeof o.timeoutMs === "number" ? o.timeoutMs / 1000 : null }
      : undefined,
  /** One `A path` / `M path` / `D path` line per entry of `changes` (moves list the new path). */
  changed_files: (o) => Array.isArray(o.changes) ? { value: changedFiles(o.changes) } : undefined,
  /** `lines` as `<number>\t<line>` lines (`cat -n` style), numbered from `startLine` (or 1). */
  numbered_lines: (o) =>
    Array.isArray(o.lines) ? { value: numberedLines(o.lines, o.startLine) } : undefined,
  /** `lines` as `<number>\t<line>` with the number right-aligned in 6 columns (Kimi CLI). */
  padded_numbered_lines: (o) =>
    Array.isArray(o.lines) ? { value: numberedLines(o.lines, o.startLine, "\t", 6) } : undefined,
  /**
   * `lines` numbered from the `offset` the call gave, else from `startLine`: `offset: 0` numbers
   * from 0, as ZCode does.
   */
  offset_numbered_lines: (o) =>
    Array.isArray(o.lines)
      ? { value: numberedLines(o.lines, typeof o.offset === "number" ? o.offset : o.startLine) }
      : undefined,
  /** `lines` as `<number>: <line>` lines, numbered from `startLine` (or 1). */
  colon_numbered_lines: (o) =>
    Array.isArray(o.lines) ? { value: numberedLines(o.lines, o.startLine, ": ") } : undefined,
  /** Number of the last line in `lines`. */
  last_line: (o) =>
    Array.isArray(o.lines) ? { value: Number(o.startLine ?? 1) + o.lines.length - 1 } : undefined,
  /** Number of the line after the last one in `lines`: where a read goes on. */
  next_line: (o) =>
    Array.isArray(o.lines) && typeof o.totalLines === "number"
      ? { value: Number(o.startLine ?? 1) + o.lines.length }
      : undefined,
  /** Lines of the file after the last one in `lines`. */
  remaining_lines: (o) =>
    Array.isArray(o.lines) && typeof o.totalLines === "number"
      ? { value: o.totalLines - (Number(o.startLine ?? 1) + o.lines.length - 1) }
      : undefined,
  /** `files`, one per line. */
  file_list: (o) => Array.isArray(o.files) ? { value: o.files.map(String).join("\n") } : undefined,
  /** How many entries of `lines` are matches rather than context (grep content mode). */
  match_count: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? { value: (o.lines as GrepLike[]).filter((l) => l.match).length }
      : undefined,
  /** Grep matches grouped by file: `<path>:` then `  Line <n>: <text>` lines. */
  matches_by_file: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? { value: matchesByFile(o.lines as GrepLike[]) }
      : undefined,
  /** Grep lines ripgrep style: `path:n:text` for matches, `path-n-text` for context lines. */
  grep_lines: (o) =>
    Array.isArray(o.lines) && o.mode !== undefined
      ? {
        value: (o.lines as GrepLike[]).map((l) =>
          `${l.path}${l.match ? ":" : "-"}${l.line}${l.match ? ":" : "-"}${l.text}`
        ).join("\n"),
      }
      : undefined,
  /** Grep counts, one `path:count` line per file (ripgrep's `--count`). */
  count_lines: (o) =>
    Array.isArray(o.counts)
      ? {
        value: (o.counts as Array<{ path: string; count: number }>).map((c) =>
          `${c.path}:${c.count}`
        ).join("\n"),
      }
      : undefined,
  /** `lines` joined as plain text, without numbers. */
  text: (o) => Array.isArray(o.lines) ? { value: o.lines.join("\n") } : undefined,
  /** A note on how to read on when a read stopped before the end (dropped at end of file). */
  more_lines_note: (o) => Array.isArray(o.lines) ? { value: moreLinesNote(o) } : undefined,
  /** `Command exited with code N` for a non-zero exit (dropped on success). */
  exit_note: (o) =>
    "exitCode" in o
      ? {
        value: o.exitCode === 0 || o.exitCode === null
          ? null
          : `Command exited with code ${o.exitCode}`,
      }
      : undefined,
};

interface GrepLike {
  path: string;
  line: number;
  text: string;
  match: boolean;
}

function matchesByFile(lines: GrepLike[]): string {
  const blocks: string[] = [];
  let current: string | undefined;
  for (const l of lines.filter((l) => l.match)) {
    if (l.path !== current) blocks.push(`${blocks.length ? "\n" : ""}${l.path}:`);
    current = l.path;
    blocks.push(`  Line ${l.line}: ${l.text}`);
  }
  return blocks.join("\n");
}

function moreLinesNote(o: Output): string | null {
  if (o.endOfFile !== false || typeof o.totalLines !== "number") return null;
  const next = Number(o.startLine ?? 1) + (o.lines as unknown[]).length;
  const remaining = o.totalLines - next + 1;
  return `[${remaining} more lines in file. Use offset=${next} to continue.]`;
}

/**
 * `{if_<field>}` is empty when the field is truthy and drops its line otherwise; `{unless_<field>}`
 * is the reverse. They let a template choose between lines, such as an end-of-file note.
 */
function conditional(o: Output, name: string): { value: unknown } | undefined {
  const match = /^(if|unless)_(.+)$/.exec(name);
  const hit = match ? fieldOf(o, match[2]) : undefined;
  if (!match || !hit) return undefined;
  return { value: isPresent(hit.value) === (match[1] === "if") ? "" : null };
}

/** Truthy, and not an empty string or list: what `{if_<field>}` tests. */
export function isPresent(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function changedFiles(changes: unknown[]): string {
  const letter: Record<string, string> = { add: "A", update: "M", move: "M", delete: "D" };
  return changes.filter(isObject).map((c) =>
    `${letter[String(c.kind)] ?? "M"} ${String(c.movePath ?? c.path)}`
  ).join("\n");
}

function numberedLines(lines: unknown[], start: unknown, separator = "\t", width = 0): string {
  const first = typeof start === "number" ? start : 1;
  return lines.map((line, i) => `${String(first + i).padStart(width)}${separator}${String(line)}`)
    .join("\n");
}

function isShellRun(o: Output): boolean {
  return typeof o.output === "string" && "exitCode" in o && typeof o.durationMs === "number";
}

/** FNV-1a over the command, output and duration, as six hex digits. */
function chunkId(o: Output): string {
  let hash = 0x811c9dc5;
  for (const ch of `${o.command}\0${o.output}\0${o.durationMs}`) {
    hash = Math.imul(hash ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  }
  return (hash & 0xffffff).toString(16).padStart(6, "0");
}

/** An output field by its name, or by the camelCase of a snake_case name. */
export function fieldOf(o: Output, name: string): { value: unknown } | undefined {
  if (Object.hasOwn(o, name)) return { value: o[name] };
  const camel = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (camel !== name && Object.hasOwn(o, camel)) return { value: o[camel] };
  return undefined;
}

function isObject(v: unknown): v is Output {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
