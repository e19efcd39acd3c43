// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import { formatConfigDebug } from "../../config/debug.ts";
import { loadSessionConfig } from "../../session/setup.ts";
import { setupReportLines } from "../../session/setup_report.ts";
import type { SessionConfig } from "../../session/types.ts";

/**
 * `interpreter debug config`: every effective value with the place it came from, then the other
 * agents' setups read and skipped.
 */
export async function runDebugConfig(session: SessionConfig): Promise<number> {
  const env = Deno.env.toObject();
  const config = await loadSessionConfig(session, { env });
  const setups = await setupReportLines(config, { env });
  console.log(terminalText(formatConfigDebug(config) + setups.join("\n")));
  return 0;
}
