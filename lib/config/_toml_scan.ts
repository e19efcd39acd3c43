/**
 * A TOML document as a list of whole-line statements (blank and comment lines, table headers,
 * key/value pairs with their multi-line values), each with its span in the text. It is enough to
 * cut and insert tables without touching a byte elsewhere; it checks no syntax, so it is only
 * run on text the parser has accepted.
 */
import { splitKeyPath } from "./_keypath.ts";

/** One statement: the lines from `start` to `end` (offsets; `end` is after its newline). */
export type TomlStatement =
  & { start: number; end: number; /** 1-based line of `start`. */ line: number }
  & (
    | { kind: "blank" | "comment" }
    /** `[a.b]`, or `[[a.b]]` when `array`. */
    | { kind: "header"; path: string[]; array: boolean }
    /** `key = value` in the table `table` (the last header's path; [] before any). */
    | { kind: "pair"; table: string[]; key: string[]; inline: boolean }
  );

const KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')`;
const DOTTED = String.raw`${KEY}(?:[ \t]*\.[ \t]*${KEY})*`;
const HEADER = new RegExp(String.raw`[ \t]*(\[\[?)[ \t]*(${DOTTED})[ \t]*\]`, "y");
const PAIR = new RegExp(String.raw`[ \t]*(${DOTTED})[ \t]*=[ \t]*`, "y");
const BLANK = /[ \t]*(?:\r?\n|$)/y;
const COMMENT = /[ \t]*#/y;

/**
 * Splits `text` into statements (all of it but a leading byte order mark); throws an `Error`
 * where the text is not TOML it can follow.
 */
export function scanToml(text: string): TomlStatement[] {
  const out: TomlStatement[] = [];
  let table: string[] = [];
  // A byte order mark belongs to no statement, so that it stays whatever is cut.
  let at = text.startsWith("\ufeff") ? 1 : 0;
  let line = 1;
  while (at < text.length) {
    const start = at;
    let statement: TomlStatement;
    const header = execAt(HEADER, text, at);
    const pair = header ? null : execAt(PAIR, text, at);
    if (execAt(BLANK, text, at)) {
      at = lineEnd(text, at);
      statement = { kind: "blank", start, end: at, line };
    } else if (execAt(COMMENT, text, at)) {
      at = lineEnd(text, at);
      statement = { kind: "comment", start, end: at, line };
    } else if (header) {
      table = keyPath(header[2], line);
      at = lineEnd(text, at);
      statement = { kind: "header", start, end: at, line, path: table, array: header[1] === "[[" };
    } else if (pair) {
      const valueAt = start + pair[0].length;
      at = lineEnd(text, valueEnd(text, valueAt, line));
      const [key, inline] = [keyPath(pair[1], line), text[valueAt] === "{"];
      statement = { kind: "pair", start, end: at, line, table, key, inline };
    } else {
      throw new Error(`Cannot follow the TOML at line ${line}`);
    }
    out.push(statement);
    line += countNewlines(text, start, at);
  }
  return out;
}

/** `regex` (sticky) matched at offset `at`, or null. */
function execAt(regex: RegExp, text: string, at: number): RegExpExecArray | null {
  regex.lastIndex = at;
  return regex.exec(text);
}

function keyPath(text: string, line: number): string[] {
  const path = splitKeyPath(text);
  if (!path) throw new Error(`Cannot read the key "${text}" at line ${line}`);
  return path;
}

/** The offset after the newline that ends the line holding `at` (or the text's end). */
function lineEnd(text: string, at: number): number {
  const newline = text.indexOf("\n", at);
  return newline === -1 ? text.length : newline + 1;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
    count++;
  }
  return count;
}

/**
 * The offset of the newline that ends the value starting at `at`: strings are skipped whole
 * (multi-line ones too), and arrays and inline tables may span lines, comments included.
 */
function valueEnd(text: string, at: number, line: number): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = stringEnd(text, i, line);
      continue;
    }
    if (c === "#") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
      continue;
    }
    if (c === "\n" && depth <= 0) return i;
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    i++;
  }
  return i;
}

/** The offset after the string that opens at `at`; `"""` and `'''` strings may span lines. */
function stringEnd(text: string, at: number, line: number): number {
  const quote = text[at];
  const triple = quote.repeat(3);
  const multi = text.startsWith(triple, at);
  let i = at + (multi ? 3 : 1);
  while (i < text.length) {
    if (quote === '"' && text[i] === "\\") {
      i += 2;
      continue;
    }
    if (!multi && text[i] === "\n") break;
    if (multi && text.startsWith(triple, i)) {
      i += 3;
      // Up to two more quotes right before the closing three belong to the string.
      for (let extra = 0; extra < 2 && text[i] === quote; extra++) i++;
      return i;
    }
    if (!multi && text[i] === quote) return i + 1;
    i++;
  }
  throw new Error(`Cannot find the end of the string that starts at line ${line}`);
}
