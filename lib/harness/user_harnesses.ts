/** Checks of the user's own harness folders (`~/.openinterpreter/harnesses`). */
import { join } from "node:path";
import { HarnessError } from "../errors.ts";
import { listHarnessIds, loadHarnessDir } from "./load.ts";

/**
 * One warning per harness folder in `userDir` (other than `except`, which loads for real) that
 * does not load, so that a broken harness is not silently unavailable.
 */
export async function userHarnessWarnings(userDir: string, except: string): Promise<string[]> {
  const warnings: string[] = [];
  for (const id of await listHarnessIds({ builtinDir: userDir })) {
    if (id === except) continue;
    try {
      await loadHarnessDir(join(userDir, id));
    } catch (err) {
      if (!(err instanceof HarnessError)) throw err;
      warnings.push(`Skipping the harness "${id}" in ${userDir}: ${err.message} (${err.hint})`);
    }
  }
  return warnings;
}
