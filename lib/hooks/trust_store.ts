/**
 * The user's trust in project hooks, kept in `<home>/hooks_trust.json` per project root and per
 * exact definition (the digest of `definitionKey()`): a hook whose command, matcher, event or
 * timeout changes is untrusted again. Only the user's own config folder holds it, so a project
 * cannot trust its own hooks.
 *
 * ```json
 * { "version": 1, "projects": { "/path/to/repo": ["3f2a…", "9c01…"] } }
 * ```
 */
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { writeHomeFile } from "../config/home.ts";

/** The trust file's name in the config home. */
export const HOOK_TRUST_FILE = "hooks_trust.json";

interface TrustFile {
  version: 1;
  projects: Record<string, string[]>;
}

/** The digests of the hooks of `projectRoot` the user trusts. */
export async function trustedHookKeys(home: string, projectRoot: string): Promise<Set<string>> {
  const file = await readTrustFile(join(home, HOOK_TRUST_FILE));
  return new Set(file.projects[projectRoot] ?? []);
}

/** Records that the user trusts the hooks with digests `keys` in project `projectRoot`. */
export async function trustHookKeys(
  home: string,
  projectRoot: string,
  keys: string[],
): Promise<void> {
  const path = join(home, HOOK_TRUST_FILE);
  const file = await readTrustFile(path);
  const known = new Set(file.projects[projectRoot] ?? []);
  for (const key of keys) known.add(key);
  file.projects[projectRoot] = [...known].sort();
  await writeHomeFile(path, JSON.stringify(file, null, 2) + "\n");
}

async function readTrustFile(path: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { version: 1, projects: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text);
    if (isTrustFile(parsed)) return parsed;
  } catch {
    // Reported below.
  }
  throw new ConfigError(
    `Cannot read the hook trust file "${path}": it is not one this version wrote`,
    {
      hint: `Remove "${path}" and trust the project's hooks again with /hooks`,
    },
  );
}

function isTrustFile(value: unknown): value is TrustFile {
  if (typeof value !== "object" || value === null) return false;
  const { version, projects } = value as Record<string, unknown>;
  if (version !== 1 || typeof projects !== "object" || projects === null) return false;
  return Object.values(projects).every((keys) =>
    Array.isArray(keys) && keys.every((k) => typeof k === "string")
  );
}
