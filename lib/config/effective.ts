/** The merged configuration and the origin of each of its values. */
import { isTable, joinKeyPath, splitKeyPath } from "./_keypath.ts";
import type { Origin } from "./origin.ts";
import type { ConfigValues, TrustLevel } from "./schema.ts";

/** One effective leaf value, its dotted key path and where it came from. */
export interface ConfigEntry {
  key: string;
  value: unknown;
  origin: Origin;
}

/** Facts about how the configuration was found, for messages and `debug config`. */
export interface ConfigContext {
  /** Working directory after `--cd`. */
  cwd: string;
  /** Nearest ancestor of `cwd` holding `.git`, else `cwd`. */
  projectRoot: string;
  /** The user config's `trust_level` for `projectRoot`, if any. */
  trust?: TrustLevel;
  /** `$OPENINTERPRETER_HOME`, else `~/.openinterpreter`. */
  home: string;
  /** Config files that were read, lowest precedence first. */
  files: string[];
  /** Unknown keys and ignored files, one sentence each. */
  warnings: string[];
}

/** The merged configuration; every value remembers the layer that set it. */
export interface EffectiveConfig extends Readonly<ConfigContext> {
  readonly values: ConfigValues;
  /** Origin of a dotted key path; for a table, its highest-precedence value. Undefined if unset. */
  origin(keyPath: string): Origin | undefined;
  /** Every leaf value (arrays count as leaves), sorted by key path. */
  entries(): ConfigEntry[];
}

/** Layers merged so far, lowest precedence first. */
export interface MergeState {
  values: Record<string, unknown>;
  /** Keyed by canonical dotted path (`joinKeyPath`), tables included. */
  origins: Map<string, Origin>;
}

/** An empty merge. */
export function newMergeState(): MergeState {
  return { values: {}, origins: new Map() };
}

/** Merges one layer over the state: tables merge key by key, other values replace. */
export function mergeLayer(
  state: MergeState,
  layer: Record<string, unknown>,
  origin: Origin | ((path: string[]) => Origin),
): void {
  const originOf = typeof origin === "function" ? origin : () => origin;
  mergeTable(state, state.values, layer, [], originOf);
}

function mergeTable(
  state: MergeState,
  target: Record<string, unknown>,
  layer: Record<string, unknown>,
  path: string[],
  originOf: (path: string[]) => Origin,
): void {
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    const childPath = [...path, key];
    state.origins.set(joinKeyPath(childPath), originOf(childPath));
    if (isTable(value)) {
      if (!isTable(target[key])) {
        clearOrigins(state, childPath);
        target[key] = {};
      }
      mergeTable(state, target[key] as Record<string, unknown>, value, childPath, originOf);
    } else {
      if (isTable(target[key])) clearOrigins(state, childPath);
      target[key] = Array.isArray(value) ? structuredClone(value) : value;
    }
  }
}

function clearOrigins(state: MergeState, path: string[]): void {
  const prefix = `${joinKeyPath(path)}.`;
  for (const key of [...state.origins.keys()]) {
    if (key.startsWith(prefix)) state.origins.delete(key);
  }
}

/** Reads the value at a key path, or undefined. */
export function valueAt(values: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = values;
  for (const segment of path) {
    if (!isTable(current)) return undefined;
    current = current[segment];
  }
  return current;
}

/** Freezes a merge into the `EffectiveConfig` callers see. */
export function toEffectiveConfig(state: MergeState, context: ConfigContext): EffectiveConfig {
  const values = state.values as unknown as ConfigValues;
  return {
    ...context,
    values,
    origin(keyPath: string): Origin | undefined {
      const segments = splitKeyPath(keyPath);
      return segments && state.origins.get(joinKeyPath(segments));
    },
    entries(): ConfigEntry[] {
      const out: ConfigEntry[] = [];
      collectLeaves(state, values as unknown as Record<string, unknown>, [], out);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

function collectLeaves(
  state: MergeState,
  table: Record<string, unknown>,
  path: string[],
  out: ConfigEntry[],
): void {
  for (const [key, value] of Object.entries(table)) {
    const childPath = [...path, key];
    if (isTable(value)) {
      collectLeaves(state, value, childPath, out);
      continue;
    }
    const name = joinKeyPath(childPath);
    out.push({ key: name, value, origin: state.origins.get(name) ?? { kind: "default" } });
  }
}
