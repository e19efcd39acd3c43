/**
 * Loads the effective configuration. Layers, highest precedence first: dedicated flags, `-c`
 * overrides, the selected profile, the project's `.openinterpreter/config.toml` (trusted projects
 * only), the user's `config.toml`, built-in defaults. Nothing here writes a file.
 */
import { join, resolve } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import { InputFileError, MAX_INPUT_FILE_BYTES_TEXT, readInputText } from "../input_file.ts";
import { builtinProvider } from "../providers/builtin.ts";
import { isTable, joinKeyPath } from "./_keypath.ts";
import { parseToml, type ValidatedLayer, validateLayer } from "./_layer.ts";
import { type ConfigOverride, parseOverride, validateOverride } from "./_override.ts";
import {
  type EffectiveConfig,
  mergeLayer,
  type MergeState,
  newMergeState,
  toEffectiveConfig,
  valueAt,
} from "./effective.ts";
import { describeOrigin, type Origin } from "./origin.ts";
import { localProvider, type LocalServerChooser } from "./oss.ts";
import { withoutNotify } from "./_codex_keys.ts";
import { readProjectTrust, trustRoots } from "./trust_store.ts";
import {
  type ConfigFile,
  configFileSchema,
  defaultValues,
  mcpTransportProblem,
  type TrustLevel,
} from "./schema.ts";

/** Config keys that have a dedicated flag. */
export type FlagKey = "model" | "model_provider" | "sandbox_mode" | "approval_policy" | "harness";

/** Values of dedicated command-line flags, keyed by config key; validated like config values. */
export interface FlagOverrides {
  model?: string;
  model_provider?: string;
  sandbox_mode?: string;
  approval_policy?: string;
  harness?: string;
  /**
   * `--oss`: use `local_provider`, else `oss_provider`, else a local `model_provider` flag, else
   * the local server found running (see oss.ts).
   */
  oss?: boolean;
  /** `--local-provider`: one of `LOCAL_PROVIDERS`; implies `oss`. */
  local_provider?: string;
  /** `-C`/`--cd`, resolved against `LoadConfigOptions.cwd`. */
  cwd?: string;
  /** `--add-dir`: absolute directories added to `sandbox_workspace_write.writable_roots`. */
  add_dirs?: string[];
  /** Flag names for origins when a key was set by another flag (say `--full-auto`). */
  names?: Partial<Record<FlagKey, string>>;
}

/** Inputs of `loadConfig`; `env` is read instead of the process environment. */
export interface LoadConfigOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  flags: FlagOverrides;
  /**
   * Config values set by the caller in order, the last one winning: raw `-c` texts like
   * `model="o3"`, or key paths with their values (`ConfigOverride`).
   */
  overrides: Array<string | ConfigOverride>;
  /** `--profile`; when absent the top-level `profile` key selects one. */
  profile?: string;
  /** True for a project file that must not load yet (it changed while a session ran). */
  isHeldBack?: (file: string) => boolean;
  /**
   * Read the project's files as if the project were trusted (`interpreter trust`, to list what
   * it would trust); `trust` is then "trusted" whatever the user decided.
   */
  assumeTrusted?: boolean;
  /**
   * Asks which of several running local servers `--oss` uses; default: a numbered prompt when
   * stdin and stderr are a terminal no one reads yet, else the first (with a warning).
   */
  chooseLocalServer?: LocalServerChooser;
}

const FLAG_NAMES: Record<FlagKey, string> = {
  model: "--model",
  model_provider: "--provider",
  sandbox_mode: "--sandbox",
  approval_policy: "--ask-for-approval",
  harness: "--harness",
};

/** Reads and merges every config layer; see the module comment for the order. */
export async function loadConfig(opts: LoadConfigOptions): Promise<EffectiveConfig> {
  const cwd = await resolveCwd(opts.cwd, opts.flags.cwd);
  const projectRoot = await findProjectRoot(cwd);
  const home = configHome(opts.env, opts.cwd);
  const warnings: string[] = [];
  const files: string[] = [];
  const layers: Array<{ layer: ConfigFile; origin: Origin }> = [];

  const userFile = join(home, "config.toml");
  const user = await readLayer(userFile);
  if (user) {
    files.push(userFile);
    warnings.push(...user.warnings);
    layers.push({ layer: user.value, origin: { kind: "user", file: userFile } });
  }
  const trust = opts.assumeTrusted
    ? "trusted"
    : await trustOf(user?.value, projectRoot, { home, env: opts.env });
  const project = await readProjectLayer(projectRoot, trust, userFile, warnings, opts.isHeldBack);
  if (project) {
    files.push(project.origin.file);
    layers.push(project);
  }
  const overrides = opts.overrides.map((o) =>
    typeof o === "string" ? parseOverride(o) : validateOverride(o)
  );
  for (const override of overrides) {
    warnings.push(...override.warnings);
  }

  const pre = newMergeState();
  for (const { layer, origin } of layers) mergeLayer(pre, layer, origin);
  for (const o of overrides) mergeLayer(pre, o.value, o.origin);
  const profile = selectProfile(pre, opts.profile, userFile);

  const state = newMergeState();
  mergeLayer(state, { ...defaultValues(trust) }, { kind: "default" });
  for (const { layer, origin } of layers) mergeLayer(state, layer, origin);
  if (profile) mergeLayer(state, profile.layer, profile.originOf);
  for (const o of overrides) mergeLayer(state, o.value, o.origin);
  const local = await localProvider(state, {
    flags: opts.flags,
    env: opts.env,
    choose: opts.chooseLocalServer,
    warn: (message) => warnings.push(message),
  });
  mergeFlags(state, opts, local);
  if (state.values.max_turns !== undefined) {
    (await import("./limit_keys.ts")).readMaxTurnsAlias(state, warnings);
  }
  checkMcpServers(state);
  return toEffectiveConfig(state, {
    cwd,
    projectRoot,
    trust,
    home,
    files,
    warnings: [...new Set(warnings)],
  });
}

async function resolveCwd(base: string, flag: string | undefined): Promise<string> {
  const cwd = resolve(base, flag ?? ".");
  if (flag === undefined) return cwd;
  const info = await Deno.stat(cwd).catch(() => undefined);
  if (!info?.isDirectory) {
    throw new UsageError(`Cannot use "${cwd}" as the working directory: not a directory`, {
      hint: "Pass an existing directory to --cd",
    });
  }
  return cwd;
}

/** The nearest ancestor of `cwd` (itself included) that holds `.git`, else `cwd`. */
export async function findProjectRoot(cwd: string): Promise<string> {
  let dir = resolve(cwd);
  while (true) {
    if (await exists(join(dir, ".git"))) return dir;
    const parent = resolve(dir, "..");
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

/** `$OPENINTERPRETER_HOME`, else `~/.openinterpreter`; a `ConfigError` when neither is known. */
export function configHome(env: Record<string, string | undefined>, cwd: string): string {
  if (env.OPENINTERPRETER_HOME) return resolve(cwd, env.OPENINTERPRETER_HOME);
  const home = env.HOME || env.USERPROFILE;
  if (home) return join(home, ".openinterpreter");
  throw new ConfigError(
    "Cannot find the config home: neither OPENINTERPRETER_HOME nor HOME is set",
    {
      hint: "Set OPENINTERPRETER_HOME to a directory for config.toml and sessions",
    },
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function readLayer(file: string): Promise<ValidatedLayer<ConfigFile> | undefined> {
  let text: string;
  try {
    text = await readInputText(file, { what: "config file" });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    if (error.missing) return undefined;
    throw new ConfigError(`Cannot read "${file}": ${error.reason}`, {
      hint: `Make "${file}" a readable file of at most ${MAX_INPUT_FILE_BYTES_TEXT}`,
      cause: error,
    });
  }
  const raw = parseToml(text, file);
  return validateLayer(raw, configFileSchema, { where: `"${file}"`, text });
}

/** The project layer; it is read only when the user config trusts the project root. */
async function readProjectLayer(
  root: string,
  trust: TrustLevel | undefined,
  userFile: string,
  warnings: string[],
  isHeldBack?: (file: string) => boolean,
): Promise<{ layer: ConfigFile; origin: { kind: "project"; file: string } } | undefined> {
  const file = join(root, ".openinterpreter", "config.toml");
  if (file === userFile || isHeldBack?.(file)) return undefined;
  if (trust !== "trusted") {
    if (await exists(file)) {
      warnings.push(
        `Ignoring "${file}" because the project "${root}" is not trusted; to load it, review ` +
          `it and run "interpreter trust" there (or add [projects.${joinKeyPath([root])}] ` +
          `trust_level = "trusted" to "${userFile}")`,
      );
    }
    return undefined;
  }
  const project = await readLayer(file);
  if (!project) return undefined;
  warnings.push(...project.warnings);
  return {
    layer: withoutNotify(withoutProjects(project.value, file, warnings), file, warnings),
    origin: { kind: "project", file },
  };
}

/**
 * The user's decision on the project at `root` (or on the repository it is a copy of, see
 * `trustRoots()`): `trust_level` in the user config, else trusted by `interpreter trust`.
 */
async function trustOf(
  user: ConfigFile | undefined,
  root: string,
  where: { home: string; env: Record<string, string | undefined> },
): Promise<TrustLevel | undefined> {
  const projects = user?.projects ?? {};
  const roots = new Set(await trustRoots(root, where.env));
  for (const [path, entry] of Object.entries(projects)) {
    if (roots.has(resolve(path)) && entry.trust_level) return entry.trust_level;
  }
  return (await readProjectTrust(where.home, root, where.env)).project ? "trusted" : undefined;
}

function withoutProjects(layer: ConfigFile, file: string, warnings: string[]): ConfigFile {
  if (layer.projects === undefined) return layer;
  warnings.push(`Ignoring "projects" in "${file}": trust can only be set in the user config`);
  const { projects: _, ...rest } = layer;
  return rest;
}

interface SelectedProfile {
  layer: Record<string, unknown>;
  originOf: (path: string[]) => Origin;
}

function selectProfile(
  pre: MergeState,
  flag: string | undefined,
  userFile: string,
): SelectedProfile | undefined {
  const name = flag ?? (valueAt(pre.values, ["profile"]) as string | undefined);
  if (name === undefined) return undefined;
  const profiles = valueAt(pre.values, ["profiles"]);
  const layer = isTable(profiles) ? profiles[name] : undefined;
  if (!isTable(layer)) {
    const chosenBy: Origin = flag !== undefined
      ? { kind: "flag", name: "--profile" }
      : pre.origins.get("profile") ?? { kind: "default" };
    const names = isTable(profiles) ? Object.keys(profiles) : [];
    const known = names.length === 0
      ? "no profiles are defined"
      : `defined profiles are ${names.map((n) => `"${n}"`).join(", ")}`;
    throw new ConfigError(
      `Cannot find profile "${name}" selected by ${describeOrigin(chosenBy)}: ${known}`,
      {
        hint: `Add a [profiles.${joinKeyPath([name])}] table to "${userFile}", ` +
          "or select a defined profile with --profile",
      },
    );
  }
  return {
    layer,
    originOf(path) {
      const source = pre.origins.get(joinKeyPath(["profiles", name, ...path]));
      const file = source?.kind === "user" || source?.kind === "project" ? source.file : undefined;
      return { kind: "profile", name, file };
    },
  };
}

function mergeFlags(
  state: MergeState,
  opts: LoadConfigOptions,
  local: { id: string; flag: string } | undefined,
): void {
  const { flags } = opts;
  const entries: Array<[string, unknown, string]> = [];
  if (opts.profile !== undefined) entries.push(["profile", opts.profile, "--profile"]);
  for (const key of Object.keys(FLAG_NAMES) as FlagKey[]) {
    if (flags[key] !== undefined) {
      entries.push([key, flags[key], flags.names?.[key] ?? FLAG_NAMES[key]]);
    }
  }
  if (local) {
    entries.push(["model_provider", local.id, local.flag]);
    // As in Codex, --oss without --model asks for the local default model, not the configured
    // one, unless the configured provider already is that local provider.
    const model = builtinProvider(local.id)?.defaultModel;
    const configured = valueAt(state.values, ["model_provider"]) === local.id;
    if (flags.model === undefined && model && !configured) {
      entries.push(["model", model, local.flag]);
    }
  }
  for (const [key, value, flag] of entries) {
    const source = { where: `flag ${flag}`, usage: true };
    const { value: layer } = validateLayer({ [key]: value }, configFileSchema, source);
    mergeLayer(state, layer, { kind: "flag", name: flag });
  }
  if (flags.add_dirs?.length) addWritableRoots(state, flags.add_dirs);
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** `--add-dir`: each directory joins the writable roots the other layers set. */
function addWritableRoots(state: MergeState, dirs: string[]): void {
  for (const dir of dirs) {
    if (!isDirectory(dir)) {
      throw new UsageError(`Cannot add "${dir}" as a writable root: it is not a directory`, {
        hint: "Pass --add-dir an existing directory",
      });
    }
  }
  const current = valueAt(state.values, ["sandbox_workspace_write", "writable_roots"]);
  const roots = [...(Array.isArray(current) ? current : []), ...dirs];
  mergeLayer(state, { sandbox_workspace_write: { writable_roots: roots } }, {
    kind: "flag",
    name: "--add-dir",
  });
}

function checkMcpServers(state: MergeState): void {
  const servers = valueAt(state.values, ["mcp_servers"]);
  if (!isTable(servers)) return;
  for (const [id, server] of Object.entries(servers)) {
    const problem = mcpTransportProblem(server as Record<string, unknown>);
    if (problem === undefined) continue;
    const table = joinKeyPath(["mcp_servers", id]);
    const origin = state.origins.get(table) ?? { kind: "default" };
    throw new ConfigError(
      `Invalid MCP server "${id}" set by ${describeOrigin(origin)}: ${problem}`,
      { hint: `Give [${table}] exactly one of "command" or "url"` },
    );
  }
}
