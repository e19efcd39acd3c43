/**
 * When the provider's key is in neither its environment variable nor `auth.json`, the REPL asks
 * for it (hidden), checks it with one cheap request and stores it in `auth.json`; a key the
 * provider refuses is asked for again. Enter skips.
 */
import { join } from "node:path";
import { MissingKeyError } from "../../config/auth.ts";
import {
  checkProviderKey,
  type KeyCheck,
  type KeyCheckTarget,
  storeProviderKey,
} from "../../config/provider_setup.ts";

/** How the key setup talks to the user. */
export interface KeySetupIO {
  print(text: string): void;
  /** One line typed without echo; undefined when cancelled or at end of input. */
  readSecret(prompt: string): Promise<string | undefined>;
}

/** Options of `enterMissingKey`. */
export interface KeySetupOptions {
  /** The check request; the real one unless a test passes another. */
  check?: (target: KeyCheckTarget, key: string) => Promise<KeyCheck>;
}

/** `enterMissingKey()` when `error` is a `MissingKeyError`; false for any other error. */
export function askForMissingKey(
  error: unknown,
  home: string,
  io: KeySetupIO & KeySetupOptions,
): Promise<boolean> {
  if (!(error instanceof MissingKeyError)) return Promise.resolve(false);
  return enterMissingKey(error, home, io);
}

/** Asks for the key `missing` names; true once one is stored, false when the user skipped. */
export async function enterMissingKey(
  missing: MissingKeyError,
  home: string,
  io: KeySetupIO & KeySetupOptions,
): Promise<boolean> {
  const { settings } = missing;
  const check = io.check ?? checkProviderKey;
  const host = new URL(settings.baseUrl).host;
  io.print(`${settings.name} needs an API key, and none is set in ${settings.envKey}.`);
  while (true) {
    const key = (await io.readSecret(`API key for ${settings.name} (hidden; Enter skips): `))
      ?.trim();
    if (!key) {
      io.print(
        `Skipped. Set ${settings.envKey}, or choose another provider in ` +
          `${join(home, "config.toml")}.`,
      );
      return false;
    }
    const result = await check(settings, key);
    if (result.status === "refused") {
      io.print(
        `${host} refused the key (${result.detail}). Paste another, or press Enter to skip.`,
      );
      continue;
    }
    const stored = await storeProviderKey(home, settings.id, key);
    const checked = result.status === "accepted"
      ? `${host} accepted the key`
      : `Could not check the key (${result.detail})`;
    io.print(
      `${checked}; stored it in ${stored}, which only you can read. ` +
        `${settings.envKey} wins over it when set; "interpreter logout ${settings.id}" removes it.`,
    );
    return true;
  }
}
