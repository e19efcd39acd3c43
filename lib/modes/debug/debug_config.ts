// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import { formatConfigDebug } from "../../config/debug.ts";
import { loadSessionConfig } from "../../session/setup.ts";
import type { SessionConfig } from "../../session/types.ts";

/** `interpreter debug config`: every effective value with the place it came from. */
export async function runDebugConfig(session: SessionConfig): Promise<number> {
  const config = await loadSessionConfig(session, { env: Deno.env.toObject() });
  console.log(terminalText(formatConfigDebug(config)));
  return 0;
}
