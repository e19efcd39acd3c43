/**
 * A session's permission gate, opened at start (loaded with `import()`: the rule matcher stays
 * out of the start-up static graph).
 */
import type { EffectiveConfig } from "../../config/mod.ts";
import { readProjectTrust } from "../../config/trust_store.ts";
import { setupContext } from "../sources.ts";
import { type PermissionGate, permissionGate } from "./gate.ts";
import { loadRules } from "./load.ts";

/** The gate over every rule `config`'s session reads, and its warnings about bad rules. */
async function openPermissionGate(
  config: EffectiveConfig,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (path: string) => boolean },
): Promise<{ gate: PermissionGate; warnings: string[] }> {
  const ctx = setupContext(config, opts);
  const trusted = ctx.projectTrusted
    ? (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions
    : new Set<string>();
  const found = await loadRules(config, ctx, trusted);
  return { gate: permissionGate(found, { userHome: ctx.userHome }), warnings: found.warnings };
}

/**
 * Once the session settled the project's trust (the REPL's question): takes in the allow rules
 * trusted now (all with `bypass`); the others stay off.
 */
export async function settlePermissionTrust(
  session: {
    permissions?: PermissionGate;
    config: Pick<EffectiveConfig, "home" | "projectRoot" | "trust">;
  },
  opts: { env: Record<string, string | undefined>; bypass: boolean; warn(message: string): void },
): Promise<void> {
  const { permissions: gate, config } = session;
  if (!gate || gate.untrusted.length === 0) return;
  const trusted = opts.bypass
    ? "all"
    : config.trust === "trusted"
    ? (await readProjectTrust(config.home, config.projectRoot, opts.env)).definitions
    : new Set<string>();
  // Those left off are named by the session's warnings about untrusted definitions
  // (lib/session/trust.ts): kind by kind in a trusted project, file by file in another.
  await gate.settleTrust(trusted);
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
