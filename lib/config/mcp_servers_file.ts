/**
 * Adding and removing `[mcp_servers.NAME]` tables of the user's `config.toml` in place
 * (`interpreter mcp add/remove`): comments, order and every other key stay byte for byte. Each
 * edit is checked by parsing the result, which must hold exactly the old values with the one
 * server added or removed, and by the config schema; then the file is replaced atomically.
 */
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { InputFileError, MAX_INPUT_FILE_BYTES_TEXT, readInputText } from "../input_file.ts";
import { formatTomlValue, isTable, joinKeyPath } from "./_keypath.ts";
import { parseToml, validateLayer } from "./_layer.ts";
import { writeHomeFile } from "./home.ts";
import {
  type ConfigFile,
  configFileSchema,
  type McpServerEntry,
  mcpServerSchema,
  mcpTransportProblem,
} from "./schema.ts";
import { appendTable, removeTable, tableSetOutsideHeaders } from "./toml_tables.ts";

/** The user's `config.toml` in config home `home`. */
export function userConfigFile(home: string): string {
  return join(home, "config.toml");
}

/** The text of config file `file`; "" when there is none. */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readInputText(file, { what: "config file" });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    if (error.missing) return "";
    throw new ConfigError(`Cannot read "${file}": ${error.reason}`, {
      hint: `Make "${file}" a readable file of at most ${MAX_INPUT_FILE_BYTES_TEXT}`,
      cause: error,
    });
  }
}

/** The config layer `text` holds; a `ConfigError` naming the line on bad syntax or a bad value. */
export function configLayerOf(text: string, file: string): ConfigFile {
  return validateLayer(parseToml(text, file), configFileSchema, { where: `"${file}"`, text }).value;
}

/** The `[mcp_servers.NAME]` table that sets `entry`, its `tools` as subtables. */
export function mcpServerTable(name: string, entry: McpServerEntry): string {
  const header = ["mcp_servers", name];
  const lines = [`[${joinKeyPath(header)}]`];
  for (const key of Object.keys(mcpServerSchema.shape)) {
    const value = entry[key as keyof McpServerEntry];
    if (value === undefined || key === "tools") continue;
    lines.push(`${key} = ${tomlValue(value)}`);
  }
  for (const [tool, settings] of Object.entries(entry.tools ?? {})) {
    lines.push("", `[${joinKeyPath([...header, "tools", tool])}]`);
    for (const [key, value] of Object.entries(settings)) lines.push(`${key} = ${tomlValue(value)}`);
  }
  return lines.join("\n") + "\n";
}

/** TOML for a value; strings escape what a TOML basic string may not hold (JSON leaves DEL). */
function tomlValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value).replaceAll("\x7f", "\\u007F");
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  if (isTable(value)) {
    const parts = Object.entries(value).map(([k, v]) => `${joinKeyPath([k])} = ${tomlValue(v)}`);
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }
  return formatTomlValue(value);
}

/**
 * `text` with server `name` (not there yet) as a new table at its end. A `ConfigError` when the
 * file's `[mcp_servers]` is written in a form a table cannot be added to (an inline table).
 */
export function withMcpServer(
  text: string,
  file: string,
  server: { name: string; entry: McpServerEntry },
): string {
  const { name, entry } = server;
  const problem = mcpTransportProblem(entry);
  if (problem) throw new TypeError(`MCP server "${name}": ${problem}`);
  const table = mcpServerTable(name, entry);
  const edited = appendTable(text, table);
  const added = (parseToml(table, file).mcp_servers as Record<string, unknown>)[name];
  checkEdit({ file, name, verb: "add", before: text, after: edited }, (servers) => {
    servers[name] = added;
  });
  configLayerOf(edited, file);
  return edited;
}

/** `text` without server `name` and its subtables; a `ConfigError` when it cannot cut it safely. */
export function withoutMcpServer(text: string, file: string, name: string): string {
  const path = ["mcp_servers", name];
  let edited: string | undefined;
  try {
    if (tableSetOutsideHeaders(text, path) === undefined) edited = removeTable(text, path);
  } catch {
    // The scanner could not follow the text; the error below says to edit it by hand.
  }
  if (edited === undefined) throw unsafeEdit({ file, name, verb: "remove", before: text });
  checkEdit({ file, name, verb: "remove", before: text, after: edited }, (servers) => {
    delete servers[name];
  });
  configLayerOf(edited, file);
  return edited;
}

interface Edit {
  file: string;
  name: string;
  verb: "add" | "remove";
  before: string;
  after: string;
}

/** Checks that `after` parses to what `before` holds with `change` made to its servers. */
function checkEdit(edit: Edit, change: (servers: Record<string, unknown>) => void): void {
  const expected = parseToml(edit.before, edit.file);
  if (!isTable(expected.mcp_servers)) expected.mcp_servers = Object.create(null);
  change(expected.mcp_servers as Record<string, unknown>);
  let actual: Record<string, unknown>;
  try {
    actual = parseToml(edit.after, edit.file);
  } catch {
    throw unsafeEdit(edit);
  }
  if (!sameToml(withoutNoServers(actual), withoutNoServers(expected))) {
    throw unsafeEdit(edit);
  }
}

/**
 * Deep strict equality of parsed TOML (tables, arrays, dates, scalars), prototypes included, as
 * `node:util`'s `isDeepStrictEqual` has it; written here since `node:util` loads much of the
 * Node layer at start-up.
 */
export function sameToml(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date && !Object.is(a.getTime(), (b as Date).getTime())) return false;
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return false;
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameToml((a as typeof other)[key], other[key]));
}

/**
 * A shallow copy of the document without an empty `mcp_servers` table, which cutting the last
 * server may leave; a copy either way, so that both sides of a comparison have one prototype.
 */
function withoutNoServers(doc: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...doc };
  if (isTable(copy.mcp_servers) && Object.keys(copy.mcp_servers).length === 0) {
    delete copy.mcp_servers;
  }
  return copy;
}

function unsafeEdit(edit: Omit<Edit, "after">): ConfigError {
  const { file, name, verb } = edit;
  const path = verb === "add" ? ["mcp_servers"] : ["mcp_servers", name];
  let line: number | undefined;
  try {
    line = tableSetOutsideHeaders(edit.before, path);
  } catch {
    line = undefined;
  }
  const where = line === undefined
    ? "the file's tables could not be edited without changing other settings"
    : `[${joinKeyPath(path)}] is set by a dotted key or an inline table at line ${line}`;
  return new ConfigError(`Cannot ${verb} MCP server "${name}" in "${file}" safely: ${where}`, {
    hint: `Edit "${file}" by hand, or write each server there as its own ` +
      `[mcp_servers.NAME] table and run the command again`,
  });
}

/**
 * Replaces config file `file` with `text` through a temp file (mode 0600, as every file of the
 * home); a symlinked file is written where the link points.
 */
export async function writeConfigText(file: string, text: string): Promise<void> {
  const target = await Deno.realPath(file).catch(() => file);
  await writeHomeFile(target, text);
}
