/**
 * Provider keys typed into the REPL, kept in `auth.json` in the config home: mode 0600, replaced
 * through a temp file, never in `config.toml` or a session file. A key in the provider's
 * environment variable always wins over the stored one (see `resolveProvider`).
 *
 * ```json
 * { "providers": { "openai": { "api_key": "sk-..." } } }
 * ```
 *
 * Other sections share the file and are kept as they are: `mcp` holds the OAuth sign-ins of MCP
 * servers (`lib/mcp/oauth_store.ts`).
 */
import { join } from "node:path";
import { AuthError, ConfigError } from "../errors.ts";
import type { ProviderSettings } from "../providers/types.ts";
import { joinKeyPath } from "./_keypath.ts";
import { writeHomeFile } from "./home.ts";

/** The file's name in the config home. */
const AUTH_FILE_NAME = "auth.json";

/** Where the keys of the config home `home` are kept. */
export function authFile(home: string): string {
  return join(home, AUTH_FILE_NAME);
}

/**
 * The provider's key is in neither its environment variable nor `auth.json`. Exit code 2, like
 * every other configuration problem. `settings` is the provider as resolved, without a key, so
 * that the REPL can ask for one and check it.
 */
export class MissingKeyError extends AuthError {
  readonly settings: ProviderSettings & { envKey: string };
  constructor(settings: ProviderSettings & { envKey: string }, state: "is not set" | "is empty") {
    const { id, envKey } = settings;
    super(`Missing API key for provider "${id}": environment variable "${envKey}" ${state}`, {
      hint: `Set ${envKey} (export ${envKey}=...), or run interpreter and enter the key when it ` +
        "asks; --model or -c model_provider=... picks another provider",
      exitCode: 2,
    });
    this.settings = settings;
  }
}

/** The stored keys by provider id; empty when there is no `auth.json`. */
export function readStoredKeys(home: string): Record<string, string> {
  return parseProviders(authFile(home), readAuthSections(home).providers);
}

/**
 * The sections of `auth.json` (`providers`, `mcp`, …) as parsed JSON; empty when there is no
 * file. A file that cannot be read or is not a JSON object is a `ConfigError`.
 */
export function readAuthSections(home: string): Record<string, unknown> {
  const file = authFile(home);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new ConfigError(`Cannot read "${file}": ${(error as Error).message}`, {
      hint: `Make it a file you can read, or remove it with "interpreter logout"`,
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return malformed(file, `it is not valid JSON (${(error as Error).message})`);
  }
  return isObject(data) ? data : malformed(file, "expected a JSON object");
}

/**
 * Replaces section `name` of `auth.json` with `value`, or removes it when `value` is undefined,
 * keeping the other sections; the file goes along with its last section.
 */
export async function writeAuthSection(home: string, name: string, value: unknown): Promise<void> {
  const sections = readAuthSections(home);
  if (value === undefined) delete sections[name];
  else sections[name] = value;
  if (Object.keys(sections).length === 0) await removeAuthFile(home);
  else await writeHomeFile(authFile(home), JSON.stringify(sections, null, 2) + "\n");
}

/** The key stored for `provider`, if any. */
export function storedKey(home: string, provider: string): string | undefined {
  return readStoredKeys(home)[provider];
}

/** Stores `key` for `provider`, keeping the other providers' keys. */
export async function storeKey(home: string, provider: string, key: string): Promise<void> {
  const trimmed = key.trim();
  if (!trimmed) throw new TypeError(`Cannot store an empty key for provider "${provider}"`);
  await writeKeys(home, { ...readStoredKeys(home), [provider]: trimmed });
}

/** Removes the key of `provider`; false when none was stored. The last key takes the file along. */
export async function removeStoredKey(home: string, provider: string): Promise<boolean> {
  const keys = readStoredKeys(home);
  if (!Object.hasOwn(keys, provider)) return false;
  delete keys[provider];
  await writeKeys(home, keys);
  return true;
}

/**
 * Removes every provider key and keeps the other sections (MCP sign-ins); false when no key was
 * stored. A file that cannot be parsed is removed whole: logging out must not need a readable file.
 */
export async function removeStoredKeys(home: string): Promise<boolean> {
  let keys: Record<string, string>;
  try {
    keys = readStoredKeys(home);
  } catch (error) {
    if (error instanceof ConfigError) return await removeAuthFile(home);
    throw error;
  }
  if (Object.keys(keys).length === 0) return false;
  await writeAuthSection(home, "providers", undefined);
  return true;
}

/** Removes `auth.json` whatever it holds, a malformed one included; false when there was none. */
export async function removeAuthFile(home: string): Promise<boolean> {
  try {
    await Deno.remove(authFile(home));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function writeKeys(home: string, keys: Record<string, string>): Promise<void> {
  const providers = Object.fromEntries(
    Object.entries(keys).map(([id, key]) => [id, { api_key: key }]),
  );
  await writeAuthSection(home, "providers", Object.keys(keys).length ? providers : undefined);
}

function malformed(file: string, what: string): never {
  throw new ConfigError(`Cannot read "${file}": ${what}`, {
    hint: `Fix it to the form {"providers": {"openai": {"api_key": "..."}}}, or remove it ` +
      `with "interpreter logout" and enter the keys again`,
  });
}

function parseProviders(file: string, providers: unknown = {}): Record<string, string> {
  if (!isObject(providers)) return malformed(file, `"providers" must be an object`);
  const keys: Record<string, string> = {};
  for (const [id, entry] of Object.entries(providers)) {
    const key = isObject(entry) ? entry.api_key : undefined;
    if (typeof key !== "string" || !key.trim()) {
      const path = joinKeyPath(["providers", id, "api_key"]);
      return malformed(file, `"${path}" must be a non-empty string`);
    }
    keys[id] = key.trim();
  }
  return keys;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
