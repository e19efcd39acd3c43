/**
 * What the REPL's provider setup needs of the config: whether a first run is due, the hosted
 * providers to offer (marking those whose key is set), and the check and storing of a key the
 * user types. The questions themselves are the front end's (lib/modes/repl/first_run.ts,
 * key_setup.ts).
 */
import { join } from "node:path";
import { InputFileError, readInputText } from "../input_file.ts";
import { BUILTIN_PROVIDERS, builtinProvider } from "../providers/builtin.ts";
import { checkKey, type KeyCheck, type KeyCheckTarget } from "../providers/key_check.ts";
import { authFile, readStoredKeys, storeKey } from "./auth.ts";
import { writeHomeFile } from "./home.ts";
import { defaultValues } from "./schema.ts";

export type { KeyCheck, KeyCheckTarget };

/** A built-in hosted provider the first run offers, with its default model. */
export interface HostedProvider {
  id: string;
  name: string;
  defaultModel: string;
  /** Its key is in its variable or stored in `auth.json` already. */
  keySet: boolean;
}

/** The config file of `home`. */
export function configFile(home: string): string {
  return join(home, "config.toml");
}

/**
 * True when the user's config names no provider, model or profile and the provider used then
 * (the default) has no key, in its variable or stored.
 */
export async function needsFirstRun(
  home: string,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  const text = await readInputText(configFile(home), { what: "config file" }).catch(() => "");
  if (/^\s*(model_provider|model|profile)\s*=/m.test(text)) return false;
  return !hasProviderKey(defaultValues().model_provider, home, env);
}

/** Every built-in provider that needs a key, in display order. */
export function hostedProviders(
  home: string,
  env: Record<string, string | undefined>,
): HostedProvider[] {
  return BUILTIN_PROVIDERS.filter((p) => p.envKey).map((p) => ({
    id: p.id,
    name: p.name,
    defaultModel: p.defaultModel,
    keySet: hasProviderKey(p.id, home, env),
  }));
}

/** `id` is one of the built-in providers' ids (a custom provider must take another). */
export function isBuiltinProviderId(id: string): boolean {
  return builtinProvider(id) !== undefined;
}

/** The provider's key is in its variable or stored in `auth.json` (or it needs none). */
function hasProviderKey(
  provider: string,
  home: string,
  env: Record<string, string | undefined>,
): boolean {
  const envKey = builtinProvider(provider)?.envKey;
  if (envKey === undefined || env[envKey]?.trim()) return true;
  if (provider === "openai" && env.CODEX_API_KEY?.trim()) return true;
  return readStoredKeys(home)[provider] !== undefined;
}

/** Checks `key` with one cheap request to the provider (`checkKey()` of lib/providers). */
export function checkProviderKey(target: KeyCheckTarget, key: string): Promise<KeyCheck> {
  return checkKey(target, key);
}

/** Stores a checked key in `auth.json`; returns the file. */
export async function storeProviderKey(home: string, provider: string, key: string) {
  await storeKey(home, provider, key);
  return authFile(home);
}

const HEADER = "# interpreter's configuration; every key is described in the README.\n";

/**
 * Puts `keys` at the top level of the TOML file: before its first table, after its leading
 * comments, keeping everything else as it was; `table` (a whole TOML table) goes at the end.
 * Creates the file with a comment header. One atomic write.
 */
export async function addTopLevelKeys(
  file: string,
  keys: Record<string, string>,
  opts: { table?: string } = {},
): Promise<void> {
  const existing = await readInputText(file, { what: "config file" }).catch((error) => {
    if (error instanceof InputFileError && error.missing) return undefined;
    throw error;
  });
  const lines = Object.entries(keys).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  let text: string;
  if (existing === undefined) {
    text = `${HEADER}\n${lines.join("\n")}\n`;
  } else {
    const all = existing.split("\n");
    let at = 0;
    while (at < all.length && /^\s*(#.*)?$/.test(all[at])) at++;
    all.splice(at, 0, ...lines, ...(at < all.length ? [""] : []));
    text = all.join("\n");
  }
  if (!text.endsWith("\n")) text += "\n";
  if (opts.table) text = `${text.replace(/\n*$/, "\n")}\n${opts.table}`;
  await writeHomeFile(file, text);
}
