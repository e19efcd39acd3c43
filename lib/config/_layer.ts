/** Parsing and validating one config layer, with messages that name the file, key and line. */
import { parse, TomlError } from "smol-toml";
import * as z from "zod";
import { ConfigError, tomlSyntaxHint, UsageError } from "../errors.ts";
import { isCodexOnlyKey } from "./_codex_keys.ts";
import { formatTomlValue, isTable, joinKeyPath, splitKeyPath } from "./_keypath.ts";
import { nearestName } from "../nearest.ts";

/** Where a layer came from, for messages. */
export interface LayerSource {
  /** Follows "in": `"/x/config.toml"`, `-c override "model=o3"`, `flag --sandbox`. */
  where: string;
  /** The file's text, to find the line of a key. */
  text?: string;
  /** Flags and `-c` values raise `UsageError`; files raise `ConfigError`. */
  usage?: boolean;
}

/** A validated layer and its warnings (unknown keys, which are dropped). */
export interface ValidatedLayer<T> {
  value: T;
  warnings: string[];
}

/** Parses TOML text; a syntax error becomes a `ConfigError` with the file, line and column. */
export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const detail = error.message.replace(/^Invalid TOML document: /, "").split("\n\n")[0];
    throw new ConfigError(
      `Cannot parse "${file}" at line ${error.line}, column ${error.column}: ${detail}`,
      {
        hint: tomlSyntaxHint(detail, ` at line ${error.line} of "${file}"`),
        cause: error,
      },
    );
  }
}

/** Validates a parsed layer; unknown keys become warnings, anything else invalid throws. */
export function validateLayer<S extends z.ZodType>(
  raw: Record<string, unknown>,
  schema: S,
  source: LayerSource,
): ValidatedLayer<z.output<S>> {
  const first = schema.safeParse(raw);
  if (first.success) return { value: first.data, warnings: [] };
  const unknown = first.error.issues.filter((i) => i.code === "unrecognized_keys");
  const invalid = first.error.issues.find((i) => i.code !== "unrecognized_keys");
  if (invalid) throw issueError(invalid, raw, source);
  const warnings: Array<{ line: number; text: string }> = [];
  const cleaned = structuredClone(raw);
  for (const issue of unknown) {
    const table = valueAtPath(cleaned, issue.path);
    for (const key of issue.keys) {
      warnings.push(unknownKeyWarning(schema, [...issue.path.map(String), key], source));
      if (isTable(table)) delete table[key];
    }
  }
  warnings.sort((a, b) => a.line - b.line);
  return { value: schema.parse(cleaned), warnings: warnings.map((w) => w.text) };
}

function unknownKeyWarning(schema: z.ZodType, path: string[], source: LayerSource) {
  const parent = path.slice(0, -1);
  const guess = closest(path[path.length - 1], knownKeysAt(schema, parent));
  const line = source.text === undefined ? undefined : findKeyLine(source.text, path);
  const at = line === undefined ? "" : ` at line ${line}`;
  if (isCodexOnlyKey(path)) {
    // Without the value, so that the same key given twice warns once.
    const where = source.usage ? "-c" : `${source.where}${at}`;
    const key = joinKeyPath(path);
    return { line: line ?? Infinity, text: `Ignoring "${key}" in ${where}: a Codex-only setting` };
  }
  const suggestion = guess === undefined
    ? ""
    : `; did you mean "${joinKeyPath([...parent, guess])}"?`;
  const text = `Unknown key "${joinKeyPath(path)}" in ${source.where}${at}${suggestion}`;
  return { line: line ?? Infinity, text };
}

function issueError(issue: z.core.$ZodIssue, raw: Record<string, unknown>, source: LayerSource) {
  const key = displayPath(issue.path);
  const actual = valueAtPath(raw, issue.path);
  const line = source.text === undefined ? undefined : findKeyLine(source.text, issue.path);
  const at = line === undefined ? "" : ` at line ${line}`;
  const message =
    `Invalid value ${formatTomlValue(actual)} for "${key}" in ${source.where}${at}: ` +
    expectation(issue);
  const place = line === undefined ? `in ${source.where}` : `at line ${line} of ${source.where}`;
  const hint = issue.code === "invalid_value"
    ? `Set "${key}" to one of the allowed values, or remove it to use the default`
    : `Fix "${key}" ${place}, or remove it to use the default`;
  const ErrorClass = source.usage ? UsageError : ConfigError;
  return new ErrorClass(message, { hint });
}

/** The value at `path` of a parsed layer, through tables and arrays (`hooks.Stop[0]`). */
function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  int: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "a table",
  record: "a table",
};

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_type":
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_big":
      return `expected ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string") return "expected a non-empty string";
      return `expected ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}`;
    case "invalid_format":
      return issue.format === "url" ? "expected an http or https URL" : `expected ${issue.format}`;
    default:
      return issue.message;
  }
}

function displayPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += (out ? "." : "") + joinKeyPath([String(segment)]);
  }
  return out;
}

function knownKeysAt(schema: z.core.$ZodType, path: readonly string[]): string[] {
  let current = schema;
  while (current instanceof z.ZodOptional) current = current.unwrap();
  if (current instanceof z.ZodObject) {
    if (path.length === 0) return Object.keys(current.shape);
    const child = current.shape[path[0]] as z.core.$ZodType | undefined;
    return child ? knownKeysAt(child, path.slice(1)) : [];
  }
  if (current instanceof z.ZodRecord && path.length > 0) {
    return knownKeysAt(current.valueType, path.slice(1));
  }
  return [];
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  return nearestName(word, candidates, { within: word.length <= 4 ? 1 : 2, contains: false });
}

const KEY_TEXT = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const HEADER_LINE = new RegExp(String.raw`^\s*\[\[?\s*(${KEY_TEXT}(?:\s*\.\s*${KEY_TEXT})*)\s*\]`);
const KEY_LINE = new RegExp(String.raw`^\s*(${KEY_TEXT}(?:\s*\.\s*${KEY_TEXT})*)\s*=(.*)$`);

/**
 * The 1-based line that sets a key path (array indices ignored), or failing that the line of
 * its nearest enclosing table or inline table. A line scan, not a parser: good enough to point.
 */
export function findKeyLine(text: string, path: readonly PropertyKey[]): number | undefined {
  const target = path.filter((p): p is string => typeof p === "string");
  let table: string[] = [];
  let best: { line: number; depth: number } | undefined;
  let openQuote: string | undefined;
  const lines = text.split(/\r?\n/);
  const consider = (keyPath: string[], line: number) => {
    const depth = keyPath.length;
    if (depth > target.length || keyPath.some((k, i) => k !== target[i])) return;
    if (!best || depth > best.depth) best = { line, depth };
  };
  for (const [index, line] of lines.entries()) {
    if (openQuote) {
      if (countOf(line, openQuote) % 2 === 1) openQuote = undefined;
      continue;
    }
    const header = HEADER_LINE.exec(line);
    if (header) {
      table = splitKeyPath(header[1]) ?? [];
      consider(table, index + 1);
      continue;
    }
    const assignment = KEY_LINE.exec(line);
    if (!assignment) continue;
    const key = splitKeyPath(assignment[1]);
    if (key) consider([...table, ...key], index + 1);
    for (const quote of ['"""', "'''"]) {
      if (countOf(assignment[2], quote) % 2 === 1) openQuote = quote;
    }
  }
  return best?.line;
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
