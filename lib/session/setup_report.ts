/**
 * The other agents' setups section of `interpreter debug config` and `/debug-config`
 * (`lib/setups/report.ts`), loaded only when asked for.
 */
import type { EffectiveConfig } from "../config/mod.ts";
import { peekHeldBack } from "../workspace/held_back.ts";

/**
 * The section's lines for the session `config` was loaded for: held-back files as `isHeldBack`
 * says (a live session's watch), else as a session starting now would find them.
 */
export async function setupReportLines(
  config: EffectiveConfig,
  opts: { env: Record<string, string | undefined>; isHeldBack?: (path: string) => boolean },
): Promise<string[]> {
  const { setupContext } = await import("../setups/sources.ts");
  const { setupSourcesReport } = await import("../setups/report.ts");
  const isHeldBack = opts.isHeldBack ??
    await peekHeldBack({ cwd: config.cwd, root: config.projectRoot, home: config.home });
  return await setupSourcesReport(setupContext(config, { env: opts.env, isHeldBack }));
}
