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
 * Models of different quality on the habit tracker, one script per harness in
 * `tests/fixtures/scripts/eval/<quality>_<harness>.jsonl`: `fixer` fixes the bug; `fumbler` makes
 * one call with a required argument missing and one to a tool that does not exist (`run_tests`),
 * then fixes it; `looper` reads a missing file until the loop guard stops the turn (exit 1).
 */
export const EVAL_QUALITIES = ["fixer", "fumbler", "looper"];

/** The routes that serve each quality (as the model name) on each harness. */
export function evalRoutes(qualities: string[], harnesses: string[]): Promise<FakeRoute[]> {
  return Promise.all(
    qualities.flatMap((quality) =>
      harnesses.map(async (harness): Promise<FakeRoute> => {
        const tools = EVAL_HARNESS_TOOLS[harness];
        if (tools === undefined) {
          throw new RangeError(
            `No eval scripts for harness "${harness}": expected one of ` +
              Object.keys(EVAL_HARNESS_TOOLS).join(", "),
          );
        }
        const path = join(
          REPO,
          "tests",
          "fixtures",
          "scripts",
          "eval",
          `${quality}_${harness}.jsonl`,
        );
        return { model: quality, tools_include: tools, script: await loadScript(path) };
      })
    ),
  );
}
