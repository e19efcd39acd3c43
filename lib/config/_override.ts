/** `-c key=value` overrides: a dotted key path and a TOML value, else a plain string. */
import { parse } from "smol-toml";
import { UsageError } from "../errors.ts";
import { splitKeyPath } from "./_keypath.ts";
import { validateLayer } from "./_layer.ts";
import type { Origin } from "./origin.ts";
import { type ConfigFile, configFileSchema } from "./schema.ts";

/**
 * A config value a front end sets: a key path and its value (a `-c key=value` of the command
 * line), validated like a config file's when the config loads.
 */
export interface ConfigOverride {
  keyPath: string[];
  value: unknown;
  /** Where it came from, as `debug config` shows it: `-c model=o3`. */
  origin: string;
  /** How error messages name it: `-c override "model=o3"`; default `override "ORIGIN"`. */
  where?: string;
}

/** One parsed and validated `-c` override. */
export interface Override {
  path: string[];
  value: ConfigFile;
  origin: Origin;
  warnings: string[];
}

const USAGE_HINT = 'Write -c key=value, for example -c model="o3" or ' +
  "-c sandbox_workspace_write.network_access=true";

/** Parses and validates `key=value` (see `parseOverrideText()` and `validateOverride()`). */
export function parseOverride(raw: string): Override {
  return validateOverride(parseOverrideText(raw));
}

/**
 * Reads `key=value` as a key path and a value: the value is read as TOML, or taken as a string
 * when it is not TOML. A `UsageError` naming the text when it is not `key=value`.
 */
export function parseOverrideText(raw: string): ConfigOverride {
  const eq = indexOfEquals(raw);
  if (eq < 0) {
    throw new UsageError(`Invalid -c override "${raw}": expected key=value`, { hint: USAGE_HINT });
  }
  const keyText = raw.slice(0, eq).trim();
  if (keyText === "") {
    throw new UsageError(`Invalid -c override "${raw}": the key is empty`, { hint: USAGE_HINT });
  }
  const keyPath = splitKeyPath(keyText);
  if (!keyPath) {
    throw new UsageError(`Invalid -c override "${raw}": "${keyText}" is not a key path`, {
      hint:
        `Quote key parts that hold other characters, as in -c 'projects."/my/repo".trust_level=trusted'`,
    });
  }
  const value = parseValue(raw.slice(eq + 1).trim());
  return { keyPath, value, origin: `-c ${raw}`, where: `-c override "${raw}"` };
}

/** Checks an override's value against the config schema; its unknown keys become warnings. */
export function validateOverride(override: ConfigOverride): Override {
  const source = { where: override.where ?? `override "${override.origin}"`, usage: true };
  const layer = validateLayer(nest(override.keyPath, override.value), configFileSchema, source);
  return {
    path: override.keyPath,
    value: layer.value,
    origin: { kind: "override", text: override.origin },
    warnings: layer.warnings,
  };
}

/** The first `=` outside a quoted key part. */
function indexOfEquals(raw: string): number {
  let quote: string | undefined;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (quote) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === "=") {
      return i;
    }
  }
  return -1;
}

function parseValue(text: string): unknown {
  try {
    const doc = parse(`value = ${text}`);
    const keys = Object.keys(doc);
    if (keys.length === 1 && keys[0] === "value") return doc.value;
  } catch {
    // Not a TOML value: take the text as a string, as Codex does.
  }
  return text;
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  let out: unknown = value;
  for (const key of [...path].reverse()) out = { [key]: out };
  return out as Record<string, unknown>;
}
