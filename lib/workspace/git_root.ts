/** Where the project's git repository starts. */
import { dirname, join } from "node:path";

/** The nearest ancestor of `dir` (itself included) that holds `.git`, if any. */
export async function findGitRoot(dir: string): Promise<string | undefined> {
  for (let current = dir;; current = dirname(current)) {
    if (await Deno.stat(join(current, ".git")).catch(() => undefined)) return current;
    if (dirname(current) === current) return undefined;
  }
}
