/**
 * The user's trust in projects and in the runnable definitions they bring (hooks and MCP
 * servers), kept in `<home>/trust.json` per project root: whether the project itself is trusted
 * (as `trust_level = "trusted"` in config.toml says; `interpreter trust` sets it here) and the
 * digests of the exact definitions the user trusted in it. A definition whose digest changes is
 * untrusted again. Only the user's config home holds the file, so a project cannot trust itself.
 *
 * ```json
 * { "version": 2, "projects": { "/path/to/repo": { "trusted": true, "definitions": ["3f2a…"] } } }
 * ```
 *
 * The older `hooks_trust.json` (hook digests per project) is read while `trust.json` does not
 * exist, and its grants go into `trust.json` at the first write; the old file is left in place.
 *
 * A copy of a repository (an eval or arena copy, a worktree) takes the trust of its source: when
 * the environment names the source's root in `OPENINTERPRETER_TRUST_SOURCE`, every trust lookup
 * also asks about that root (`trustRoots()`); grants are still written for the copy's own root.
 */
import { join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { writeHomeFile } from "./home.ts";

/** The trust file's name in the config home. */
export const TRUST_FILE = "trust.json";
/** The hook trust file of earlier versions, carried into `TRUST_FILE`. */
export const LEGACY_HOOK_TRUST_FILE = "hooks_trust.json";
/**
 * The environment variable naming the root of the repository a copy was made from: a session in
 * the copy (eval, arena, a worktree) is trusted as that repository is. Read only by the trust
 * lookup (`trustRoots()`), never by what the copy's commands see of it.
 */
export const TRUST_SOURCE_ENV = "OPENINTERPRETER_TRUST_SOURCE";

/** What the user trusts of one project. */
export interface ProjectTrust {
  /** The project itself is trusted in the store (config.toml's `trust_level` aside). */
  project: boolean;
  /** The digests of its definitions the user trusted. */
  definitions: Set<string>;
}

/** What `grantTrust()` records for a project. */
export interface TrustGrant {
  /** Trust the project itself. */
  project?: boolean;
  /** Digests of definitions to trust. */
  definitions?: readonly string[];
}

interface ProjectEntry {
  trusted?: boolean;
  definitions: string[];
}

interface TrustFile {
  version: 2;
  projects: Record<string, ProjectEntry>;
}

/**
 * The roots whose trust applies to a session in `projectRoot`: the root itself and its real
 * path, then the source repository `env[TRUST_SOURCE_ENV]` names (and its real path).
 */
export async function trustRoots(
  projectRoot: string,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const given = [projectRoot];
  const source = env[TRUST_SOURCE_ENV];
  if (source) given.push(resolve(projectRoot, source));
  const roots: string[] = [];
  for (const root of given) {
    roots.push(resolve(root), await Deno.realPath(root).catch(() => resolve(root)));
  }
  return [...new Set(roots)];
}

/** What the user trusts of the project at `projectRoot` (see `trustRoots()`). */
export async function readProjectTrust(
  home: string,
  projectRoot: string,
  env: Record<string, string | undefined>,
): Promise<ProjectTrust> {
  const file = await readTrustFile(home);
  const out: ProjectTrust = { project: false, definitions: new Set() };
  for (const root of await trustRoots(projectRoot, env)) {
    const entry = file.projects[root];
    if (!entry) continue;
    if (entry.trusted === true) out.project = true;
    for (const key of entry.definitions) out.definitions.add(key);
  }
  return out;
}

/** Records `grant` for the project at `projectRoot` (its own root, never a copy's source). */
export async function grantTrust(
  home: string,
  projectRoot: string,
  grant: TrustGrant,
): Promise<void> {
  const file = await readTrustFile(home);
  const root = resolve(projectRoot);
  const entry = file.projects[root] ?? { definitions: [] };
  if (grant.project) entry.trusted = true;
  entry.definitions = [...new Set([...entry.definitions, ...grant.definitions ?? []])].sort();
  file.projects[root] = entry;
  await writeHomeFile(join(home, TRUST_FILE), JSON.stringify(file, null, 2) + "\n");
}

/** `trust.json`; while it does not exist, the grants of `hooks_trust.json`; else none. */
async function readTrustFile(home: string): Promise<TrustFile> {
  const path = join(home, TRUST_FILE);
  const text = await readIfThere(path);
  if (text !== undefined) {
    const parsed = parseJson(text);
    if (isTrustFile(parsed)) return parsed;
    throw badFile(
      path,
      `Fix or remove "${path}"; then trust your projects again with ` +
        '"interpreter trust" in each',
    );
  }
  const legacyPath = join(home, LEGACY_HOOK_TRUST_FILE);
  const legacy = await readIfThere(legacyPath);
  if (legacy === undefined) return { version: 2, projects: {} };
  const parsed = parseJson(legacy);
  if (!isLegacyFile(parsed)) {
    throw badFile(
      legacyPath,
      `Fix or remove "${legacyPath}" (it is read until "${path}" ` +
        'exists); then trust the project\'s hooks again with "interpreter trust"',
    );
  }
  const projects: Record<string, ProjectEntry> = {};
  for (const [root, keys] of Object.entries(parsed.projects)) {
    projects[root] = { definitions: [...keys] };
  }
  return { version: 2, projects };
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new ConfigError(`Cannot read the trust file "${path}": ${(error as Error).message}`, {
      hint: `Make "${path}" a file you can read, or remove it`,
      cause: error,
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function badFile(path: string, hint: string): ConfigError {
  return new ConfigError(`Cannot read the trust file "${path}": it is not one this version wrote`, {
    hint,
  });
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((k) => typeof k === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTrustFile(value: unknown): value is TrustFile {
  if (!isRecord(value) || value.version !== 2 || !isRecord(value.projects)) return false;
  return Object.values(value.projects).every((entry) =>
    isRecord(entry) && isStringList(entry.definitions) &&
    (entry.trusted === undefined || typeof entry.trusted === "boolean")
  );
}

function isLegacyFile(value: unknown): value is { projects: Record<string, string[]> } {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects)) return false;
  return Object.values(value.projects).every(isStringList);
}
