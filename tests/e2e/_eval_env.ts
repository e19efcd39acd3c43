import { join } from "node:path";
import type { FakeRoute } from "../fake_provider/routes.ts";
import { loadScript } from "../fake_provider/script.ts";
import { REPO } from "./_harness_env.ts";

/**
 * Tools only each harness advertises, which tell their requests apart when several harnesses
 * talk to one fake provider under the same model name.
 */
export const EVAL_HARNESS_TOOLS: Record<string, string[]> = {
  native: ["exec_command", "apply_patch", "update_plan"],
  "claude-code": ["Bash", "Edit", "Read"],
  minimal: ["bash", "str_replace_editor"],
};

/**
 * One fake model per harness, all named `fake-model` and told apart by the harness's tools, each
 * playing `tests/fixtures/scripts/eval/<quality>_<harness>.jsonl`.
 */
export async function evalRoutes(plan: Record<string, string>): Promise<FakeRoute[]> {
  return await Promise.all(
    Object.entries(plan).map(async ([harness, quality]) => ({
      model: "fake-model",
      tools_include: EVAL_HARNESS_TOOLS[harness],
      script: await loadScript(
        join(REPO, "tests", "fixtures", "scripts", "eval", `${quality}_${harness}.jsonl`),
      ),
    })),
  );
}
