// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { authFile, readStoredKeys, removeStoredKey, removeStoredKeys } from "../../config/auth.ts";
import { configHome } from "../../config/load.ts";
import { UsageError } from "../../errors.ts";

/**
 * `interpreter logout [PROVIDER]`: removes the key the REPL stored for `provider` in `auth.json`,
 * or every stored key. Keys in environment variables are the user's own and stay, and so do the
 * sign-ins of MCP servers (`interpreter mcp logout NAME` removes those).
 */
export async function runLogout(provider?: string): Promise<number> {
  const env = Deno.env.toObject();
  const home = configHome(env, Deno.cwd());
  const file = authFile(home);
  if (provider === undefined) {
    // A malformed file is removed too: logging out must not need a readable file.
    const removed = await removeStoredKeys(home);
    console.log(removed ? `Removed every stored key (${file})` : `No keys are stored in ${file}`);
    return 0;
  }
  if (!(await removeStoredKey(home, provider))) {
    const stored = Object.keys(readStoredKeys(home));
    throw new UsageError(`No key is stored for provider "${provider}" in ${file}`, {
      hint: stored.length
        ? `Stored keys: ${stored.join(", ")}; "interpreter logout" removes them all`
        : `No keys are stored; a key in an environment variable is removed with unset`,
    });
  }
  console.log(`Removed the key of provider "${provider}" from ${file}`);
  return 0;
}
