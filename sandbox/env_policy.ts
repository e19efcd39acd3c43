/**
 * The environment of a spawned command, from `[shell_environment_policy]` (interfaces.md §6.5,
 * reference/sandbox.md §5). Spawn with `clearEnv: true` and the returned map.
 *
 * Steps, in order: start from `inherit`; unless `ignore_default_excludes`, drop names matching
 * `*KEY*`, `*SECRET*` or `*TOKEN*`; drop names matching `exclude`; insert `set`; if `include_only`
 * is non-empty, keep only matching names. Patterns are case-insensitive globs (`*`, `?`, `[...]`).
 */
import { nameGlobRegExp } from "./name_glob.ts";

/**
 * The `[shell_environment_policy]` table; `lib/config`'s `ShellEnvironmentPolicy` is assignable
 * to it (sandbox/ imports nothing outside itself, so the shape is restated here).
 */
export interface ShellEnvironmentPolicy {
  inherit: "all" | "core" | "none";
  ignore_default_excludes: boolean;
  exclude: string[];
  include_only: string[];
  set: Record<string, string>;
}

/** Options of `commandEnvironment()`. */
export interface CommandEnvironmentOptions {
  /** Use the Windows core set, matched case-insensitively; default: the running OS. */
  windows?: boolean;
}

/** Names matched out of the environment unless `ignore_default_excludes` is true. */
const DEFAULT_EXCLUDES: readonly string[] = Object.freeze(["*KEY*", "*SECRET*", "*TOKEN*"]);

const CORE_COMMON = ["PATH", "SHELL", "TMPDIR", "TEMP", "TMP"];
const CORE_UNIX = ["HOME", "LANG", "LC_ALL", "LC_CTYPE", "LOGNAME", "USER"];
const CORE_WINDOWS = ["PATHEXT", "USERNAME", "USERPROFILE"];

/** Computes the environment map for a command from the policy and the parent's environment. */
export function commandEnvironment(
  policy: ShellEnvironmentPolicy,
  parentEnv: Record<string, string>,
  opts: CommandEnvironmentOptions = {},
): Record<string, string> {
  const windows = opts.windows ?? Deno.build.os === "windows";
  const keep = inheritFilter(policy.inherit, windows);
  const excludes = [
    ...(policy.ignore_default_excludes ? [] : DEFAULT_EXCLUDES),
    ...policy.exclude,
  ].map(nameGlobRegExp);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (keep(name) && !excludes.some((re) => re.test(name))) env[name] = value;
  }
  Object.assign(env, policy.set);
  if (policy.include_only.length === 0) return env;
  const only = policy.include_only.map(nameGlobRegExp);
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => only.some((re) => re.test(name))),
  );
}

function inheritFilter(inherit: ShellEnvironmentPolicy["inherit"], windows: boolean) {
  if (inherit === "all") return () => true;
  if (inherit === "none") return () => false;
  const core = [...CORE_COMMON, ...(windows ? CORE_WINDOWS : CORE_UNIX)];
  if (!windows) return (name: string) => core.includes(name);
  const upper = core.map((n) => n.toUpperCase());
  return (name: string) => upper.includes(name.toUpperCase());
}
