/**
 * A session's permission gate, opened at start (loaded with `import()`: the rule matcher is no
 * part of a session that has no rules to read).
 */
import type { EffectiveConfig } from "../../config/mod.ts";
import { readProjectTrust } from "../../config/trust_store.ts";
import { setupContext } from "../sources.ts";
import { type PermissionGate, permissionGate } from "./gate.ts";
import { loadRules } from "./load.ts";

/** The gate over every rule `config`'s session reads, and what to warn about at start. */
export async function openPermissionGate(
  config: EffectiveConfig,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (path: string) => boolean },
): Promise<{ gate: PermissionGate; warnings: string[] }> {
  const ctx = setupContext(config, opts);
  const trusted = ctx.projectTrusted
    ? (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions
    : new Set<string>();
  const found = await loadRules(config, ctx, trusted);
  const warnings = [...found.warnings];
  for (const rule of found.untrusted) {
    warnings.push(
      `The project's allow rule "${rule.text}" in ${rule.source} is not used until you trust ` +
        `it: review it and run "interpreter trust" in ${config.projectRoot}`,
    );
  }
  return { gate: permissionGate(found, { userHome: ctx.userHome }), warnings };
}

/** `openPermissionGate()` for a session at start: warnings told, the paths to mask found. */
export async function openSessionPermissions(
  config: EffectiveConfig,
  opts: {
    env: Record<string, string | undefined>;
    isHeldBack?: (path: string) => boolean;
    warn: (message: string) => void;
  },
): Promise<{ gate: PermissionGate; masked: Array<{ path: string; folder: boolean }> }> {
  const { gate, warnings } = await openPermissionGate(config, opts);
  for (const warning of warnings) opts.warn(warning);
  return { gate, masked: await gate.maskedPaths(config.cwd) };
}
