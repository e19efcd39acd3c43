/**
 * What other agents' settings give a session besides hooks (issue 33 §5): the `env` its commands
 * get and the status-line script the REPL runs. A project's env set or status-line script that
 * the user has not trusted yet is left out with one warning naming `interpreter trust`.
 */
import type { EffectiveConfig } from "../../config/mod.ts";
import type { ShellEnvironmentPolicy } from "../../config/schema.ts";
import { commandEnvironment } from "../../../sandbox/env_policy.ts";
import { nameGlobRegExp } from "../../../sandbox/name_glob.ts";
import { readProjectTrust } from "../../config/trust_store.ts";
import { setupContext } from "../sources.ts";
import { type EnvSet, envSets, mergedEnv } from "./env.ts";
import { readSettingsFiles } from "./files.ts";
import {
  claudeStatusLines,
  projectStatusLineCommand,
  type StatusLineSpec,
  statusLineSpec,
} from "./status_line.ts";

export type { StatusLineSpec } from "./status_line.ts";

/** The settings a session uses from other agents' files and its own status-line key. */
export interface SessionSetupSettings {
  /** Variables for the commands the agent runs; "" removes one. */
  env: Record<string, string>;
  /** The status-line script, if any may run. */
  statusLine?: StatusLineSpec;
  warnings: string[];
}

/** Reads them (see the module comment). `bypassTrust` uses a project's without trust. */
export async function sessionSetupSettings(
  config: Pick<EffectiveConfig, "cwd" | "projectRoot" | "home" | "trust" | "values" | "origin">,
  opts: {
    env: Record<string, string | undefined>;
    isHeldBack?: (path: string) => boolean;
    bypassTrust?: boolean;
  },
): Promise<SessionSetupSettings> {
  const ctx = setupContext(config, opts);
  const { files } = await readSettingsFiles(ctx);
  const warnings: string[] = [];
  const sets = await envSets(files, ctx.importUser, warnings);
  const lines = [
    ...await ourStatusLine(config, opts),
    ...await claudeStatusLines(files, warnings),
  ];
  const trusted = [...sets, ...lines].some((d) => d.scope === "project") && !opts.bypassTrust
    ? (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions
    : undefined;
  const runs = (d: EnvSet | StatusLineSpec) =>
    d.scope === "user" || trusted === undefined || trusted.has(d.key);
  // Those left off are named in the session's one warning about untrusted definitions
  // (`settleDefinitionTrust()` in lib/session/trust.ts).
  const statusLine = lines[0];
  return {
    env: mergedEnv(sets.filter(runs)),
    ...(statusLine && runs(statusLine) ? { statusLine } : {}),
    warnings,
  };
}

/** Our `status_line_command`: the user's own, or the project's config's (which needs trust). */
async function ourStatusLine(
  config: Pick<EffectiveConfig, "projectRoot" | "trust" | "values" | "origin">,
  opts: { isHeldBack?: (path: string) => boolean },
): Promise<StatusLineSpec[]> {
  const command = config.values.status_line_command;
  if (!command) return [];
  const origin = config.origin("status_line_command");
  const project = config.trust === "trusted"
    ? await projectStatusLineCommand(
      { projectRoot: config.projectRoot, isHeldBack: opts.isHeldBack },
    )
    : undefined;
  if (project?.command === command && origin?.kind !== "user" && origin?.kind !== "flag") {
    return [project];
  }
  const source = origin && "file" in origin && origin.file ? origin.file : "config";
  return [await statusLineSpec(command, { source, scope: "user" })];
}

/**
 * Applies them to an open session: `sandbox.env` (the commands' environment, read at each turn)
 * gets the env of the settings that may be used, through `[shell_environment_policy]`, and the
 * warnings go to `warn`. Returns the status-line script that may run, if any.
 */
export async function applySetupSettings(
  config: Pick<EffectiveConfig, "cwd" | "projectRoot" | "home" | "trust" | "values" | "origin">,
  sandbox: { env: Record<string, string> },
  opts: {
    env: Record<string, string>;
    isHeldBack?: (path: string) => boolean;
    bypassTrust?: boolean;
    warn(message: string): void;
  },
): Promise<(StatusLineSpec & { projectDir: string }) | undefined> {
  const found = await sessionSetupSettings(config, opts);
  if (Object.keys(found.env).length > 0) {
    const policy = config.values.shell_environment_policy;
    const next = envWithSettings(policy, opts.env, found.env, found.warnings);
    for (const name of Object.keys(sandbox.env)) delete sandbox.env[name];
    Object.assign(sandbox.env, next);
  }
  for (const warning of found.warnings) opts.warn(warning);
  return found.statusLine && { ...found.statusLine, projectDir: config.projectRoot };
}

/**
 * The commands' environment under `policy` with `extra` laid in: each extra variable passes the
 * policy's excludes and `include_only` (one warning names those that do not); `set` wins over it;
 * an empty value removes the variable.
 */
export function envWithSettings(
  policy: ShellEnvironmentPolicy,
  parent: Record<string, string>,
  extra: Record<string, string>,
  warnings: string[],
): Record<string, string> {
  const env = commandEnvironment(policy, parent);
  const excludes = [
    ...(policy.ignore_default_excludes ? [] : ["*KEY*", "*SECRET*", "*TOKEN*"]),
    ...policy.exclude,
  ].map(nameGlobRegExp);
  const only = policy.include_only.map(nameGlobRegExp);
  const refused: string[] = [];
  for (const [name, value] of Object.entries(extra)) {
    if (name in policy.set) continue;
    if (
      excludes.some((re) => re.test(name)) || (only.length > 0 && !only.some((re) => re.test(name)))
    ) {
      refused.push(name);
    } else if (value === "") delete env[name];
    else env[name] = value;
  }
  if (refused.length > 0) {
    warnings.push(
      `The settings env ${refused.join(", ")} ${refused.length === 1 ? "is" : "are"} not ` +
        "passed to commands: [shell_environment_policy] excludes " +
        (refused.length === 1 ? "it" : "them") + " (set ignore_default_excludes or include_only)",
    );
  }
  return env;
}
