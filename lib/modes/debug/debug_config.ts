// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import { formatConfigDebug } from "../../config/debug.ts";
import type { SharedOptions } from "../../cli/cli.ts";
import { commandConfig } from "../../session/setup.ts";

/** `interpreter debug config`: every effective value with the place it came from. */
export async function runDebugConfig(options: SharedOptions): Promise<number> {
  const config = await commandConfig(options);
  console.log(terminalText(formatConfigDebug(config)));
  return 0;
}
