// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { loadConfig } from "../config/load.ts";
import { formatConfigDebug } from "../config/debug.ts";
import type { SharedOptions } from "./cli.ts";
import { flagOverrides, resolveWorkdir } from "./session_setup.ts";

/** `interpreter debug config`: every effective value with the place it came from. */
export async function runDebugConfig(options: SharedOptions): Promise<number> {
  const cwd = await resolveWorkdir(options.cd);
  const config = await loadConfig({
    cwd,
    env: Deno.env.toObject(),
    flags: flagOverrides(options, cwd),
    overrides: options.config,
    profile: options.profile,
  });
  console.log(formatConfigDebug(config));
  return 0;
}
