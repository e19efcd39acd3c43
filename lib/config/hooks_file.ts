/**
 * Reading hooks from their files: `[hooks]` of a config.toml, and a `hooks.json` of the shape
 * Codex and Claude Code use. A bad entry is a `ConfigError` naming the file, the key and the fix.
 */
import { ConfigError } from "../errors.ts";
import { InputFileError, MAX_INPUT_FILE_BYTES_TEXT, readInputText } from "../input_file.ts";
import { validateLayer } from "./_layer.ts";
import { hooksFileSchema, type HooksTable } from "./hooks_schema.ts";
import { configLayerOf, readConfigText } from "./mcp_servers_file.ts";

/** `[hooks]` of config file `file`; none when there is no such file. */
export async function readTomlHooks(file: string): Promise<HooksTable> {
  const text = await readConfigText(file);
  return text ? configLayerOf(text, file).hooks ?? {} : {};
}

/** The hooks of a `hooks.json` file, its unknown keys as `warnings`; none when it is missing. */
export async function readHooksJson(file: string, warnings: string[]): Promise<HooksTable> {
  let text: string;
  try {
    text = await readInputText(file, { what: "hooks file" });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    if (error.missing) return {};
    throw new ConfigError(`Cannot read "${file}": ${error.reason}`, {
      hint: `Make "${file}" a readable file of at most ${MAX_INPUT_FILE_BYTES_TEXT}`,
      cause: error,
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Cannot parse "${file}": ${(error as Error).message}`, {
      hint: `Write "${file}" as JSON: { "hooks": { "PreToolUse": [ { "matcher": "Bash", ` +
        `"hooks": [ { "type": "command", "command": "..." } ] } ] } }`,
      cause: error,
    });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`Cannot use "${file}": it is not a JSON object`, {
      hint: `Write "${file}" as { "hooks": { "EVENT": [ ... ] } }`,
    });
  }
  const layer = validateLayer(raw as Record<string, unknown>, hooksFileSchema, {
    where: `"${file}"`,
  });
  warnings.push(...layer.warnings);
  return layer.value.hooks ?? {};
}
