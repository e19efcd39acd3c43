/** `interpreter debug config` and `/debug-config`: each effective value with its origin. */
import { formatTomlValue, splitKeyPath } from "./_keypath.ts";
import type { EffectiveConfig } from "./effective.ts";
import { describeOrigin } from "./origin.ts";

const SECRET_NAME = /key|token|secret|authorization|password/i;
/** Keys whose values name an environment variable rather than hold a secret. */
const VARIABLE_NAME_KEYS = new Set(["env_key", "bearer_token_env_var"]);
const MASK = '"********"';
const MAX_PAD = 60;

/** True when a key path's last part looks like it holds a secret (`api_key`, `Authorization`). */
export function isSecretKey(keyPath: string): boolean {
  const segments = splitKeyPath(keyPath) ?? [keyPath];
  const name = segments[segments.length - 1];
  return SECRET_NAME.test(name) && !VARIABLE_NAME_KEYS.has(name);
}

/** One line per effective value, `key = value    # origin`, sorted, secrets masked; then warnings. */
export function formatConfigDebug(config: EffectiveConfig): string {
  const rows = config.entries().map((entry) => ({
    text: `${entry.key} = ${isSecretKey(entry.key) ? MASK : formatTomlValue(entry.value)}`,
    origin: describeOrigin(entry.origin),
  }));
  const width = Math.min(MAX_PAD, Math.max(0, ...rows.map((r) => r.text.length)));
  const trust = config.trust ?? "no trust decision";
  const lines = [
    `# home: ${config.home}`,
    `# project root: ${config.projectRoot} (${trust})`,
    `# files read: ${config.files.length === 0 ? "none" : config.files.join(", ")}`,
    ...rows.map((r) => `${r.text.padEnd(width)}    # ${r.origin}`),
    ...config.warnings.map((w) => `# warning: ${w}`),
  ];
  return lines.join("\n") + "\n";
}
