/**
 * Finds the hooks of a session. Every source's hooks run; none replaces another (Codex's rule):
 * the user's `<home>/hooks.json` and `[hooks]` of `<home>/config.toml`, then those of a trusted
 * project: `.openinterpreter/hooks.json` and `[hooks]` of `.openinterpreter/config.toml` (the
 * config loader reads that file only for a project with `trust_level = "trusted"`, and not while
 * it is held back); then those of `-c` overrides and the selected profile; then those of other
 * agents' settings files (`lib/setups/settings/hooks.ts`: the user's only with
 * `import_user_setups` naming "hooks", a trusted project's from its root down to the working
 * directory). A bad entry of ours is a `ConfigError` naming the file, the key and the fix; one of
 * another agent's file is a warning.
 */
import { join } from "node:path";
import type { EffectiveConfig } from "../config/mod.ts";
import { readHooksJson, readTomlHooks } from "../config/hooks_file.ts";
import {
  DEFAULT_HOOK_TIMEOUT_SEC,
  HOOK_EVENTS,
  type HookEvent,
  type HooksTable,
} from "../config/hooks_schema.ts";

/** Where a hook comes from: the user's own files run as written, a project's once trusted. */
export type HookScope = "user" | "project";

/** One hook command as configured. */
export interface HookDefinition {
  event: HookEvent;
  /** Its group's matcher; undefined matches everything. */
  matcher?: string;
  command: string;
  timeoutSec: number;
  statusMessage?: string;
  /** The file that defines it. */
  source: string;
  scope: HookScope;
  /** The digest of its exact definition, under which the user's trust in it is kept. */
  key: string;
}

/** What `discoverHooks()` needs of the session. */
export interface HookDiscoveryOptions {
  /** True for a project file that must not load yet (it changed while a session ran). */
  isHeldBack?: (file: string) => boolean;
  /** The user's environment: its `HOME` finds other agents' user-level settings files. */
  env?: Record<string, string | undefined>;
}

/** The hooks of a session with effective config `config`, in the order of the sources. */
export async function discoverHooks(
  config: EffectiveConfig,
  opts: HookDiscoveryOptions = {},
): Promise<{ hooks: HookDefinition[]; warnings: string[] }> {
  const warnings: string[] = [];
  const userToml = join(config.home, "config.toml");
  const projectDir = join(config.projectRoot, ".openinterpreter");
  const projectToml = join(projectDir, "config.toml");
  const projectJson = join(projectDir, "hooks.json");
  const userJson = join(config.home, "hooks.json");
  const sources: Array<{ file: string; scope: HookScope; read: () => Promise<HooksTable> }> = [
    { file: userJson, scope: "user", read: () => readHooksJson(userJson, warnings) },
  ];
  if (config.files.includes(userToml)) {
    sources.push({ file: userToml, scope: "user", read: () => readTomlHooks(userToml) });
  }
  const projectTrusted = config.trust === "trusted";
  if (projectTrusted && projectJson !== userJson && !opts.isHeldBack?.(projectJson)) {
    sources.push({
      file: projectJson,
      scope: "project",
      read: () => readHooksJson(projectJson, warnings),
    });
  }
  if (config.files.includes(projectToml) && projectToml !== userToml) {
    sources.push({ file: projectToml, scope: "project", read: () => readTomlHooks(projectToml) });
  }
  sources.push(...layeredSources(config, projectToml));
  sources.push(...await vendorSources(config, opts, warnings));
  const hooks: HookDefinition[] = [];
  for (const source of sources) {
    hooks.push(...await definitionsOf(await source.read(), source));
  }
  return { hooks, warnings };
}

/**
 * The hooks that `-c` overrides and the selected profile bring (`-c 'hooks.Stop=[...]'`,
 * `[profiles.NAME.hooks]`): the merged config's hooks of each event set by one of them, grouped
 * by where they come from. They are the user's own, except a profile of the project's config.
 */
function layeredSources(
  config: EffectiveConfig,
  projectToml: string,
): Array<{ file: string; scope: HookScope; read: () => Promise<HooksTable> }> {
  const tables = new Map<string, { scope: HookScope; table: HooksTable }>();
  for (const event of HOOK_EVENTS) {
    const origin = config.origin(`hooks.${event}`);
    const groups = config.values.hooks?.[event];
    if (!groups || (origin?.kind !== "override" && origin?.kind !== "profile")) continue;
    const label = origin.kind === "override" ? "-c override" : `profile "${origin.name}"`;
    const scope: HookScope = origin.kind === "profile" && origin.file === projectToml
      ? "project"
      : "user";
    const entry = tables.get(label) ?? { scope, table: {} };
    entry.table[event] = groups;
    tables.set(label, entry);
  }
  return [...tables].map(([file, { scope, table }]) => ({
    file,
    scope,
    read: () => Promise.resolve(table),
  }));
}

/** The hook sources of other agents' settings files (Claude Code, Gemini CLI, Qwen Code). */
async function vendorSources(
  config: EffectiveConfig,
  opts: HookDiscoveryOptions,
  warnings: string[],
): Promise<Array<{ file: string; scope: HookScope; read: () => Promise<HooksTable> }>> {
  const [{ setupContext }, { vendorHookSources }] = await Promise.all([
    import("../setups/sources.ts"),
    import("../setups/settings/hooks.ts"),
  ]);
  const ctx = setupContext(config, { env: opts.env ?? {}, isHeldBack: opts.isHeldBack });
  const found = await vendorHookSources(ctx);
  warnings.push(...found.warnings);
  return found.sources.map(({ file, scope, table }) => ({
    file,
    scope,
    read: () => Promise.resolve(table),
  }));
}

/** The hooks of one source's table, in event order. */
async function definitionsOf(
  table: HooksTable,
  source: { file: string; scope: HookScope },
): Promise<HookDefinition[]> {
  const out: HookDefinition[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of table[event] ?? []) {
      for (const hook of group.hooks) {
        const definition = {
          event,
          ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
          command: hook.command,
          timeoutSec: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SEC,
          ...(hook.statusMessage !== undefined ? { statusMessage: hook.statusMessage } : {}),
        };
        out.push({ ...definition, source: source.file, scope: source.scope, key: "" });
        out[out.length - 1].key = await definitionKey(out[out.length - 1]);
      }
    }
  }
  return out;
}

/** The digest of a hook's exact definition: event, matcher, command, timeout, status text. */
async function definitionKey(hook: Omit<HookDefinition, "key">): Promise<string> {
  const text = JSON.stringify([
    hook.event,
    hook.matcher ?? null,
    "command",
    hook.command,
    hook.timeoutSec,
    hook.statusMessage ?? null,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
