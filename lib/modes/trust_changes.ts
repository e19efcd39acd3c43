// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { configHome, findProjectRoot } from "../config/load.ts";
import { releaseHeldBack } from "./held_back.ts";
import { resolveWorkdir } from "./session_setup.ts";

/**
 * `interpreter trust-changes`: lets the next session load the project's config, skills and
 * repository that were held back because they changed while an earlier session ran.
 */
export async function runTrustChanges(options: { cd?: string }): Promise<number> {
  const env = Deno.env.toObject();
  const cwd = await resolveWorkdir(options.cd);
  const root = await findProjectRoot(cwd);
  const released = await releaseHeldBack(configHome(env, cwd), root);
  if (released.length === 0) {
    console.log(`Nothing is held back under ${root}`);
    return 0;
  }
  console.log(`Allowed ${released.length === 1 ? "1 file" : `${released.length} files`}:`);
  for (const path of released) console.log(`  ${path}`);
  return 0;
}
