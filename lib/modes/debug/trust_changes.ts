// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
import { terminalText } from "../../approval/visible.ts";
import { allowHeldBackChanges } from "../../session/trust.ts";

/**
 * `interpreter trust-changes`: lets the next session load the project's config, skills and
 * repository that were held back because they changed while an earlier session ran.
 */
export async function runTrustChanges(options: { cwd: string }): Promise<number> {
  const { root, files, folders } = await allowHeldBackChanges(options.cwd, Deno.env.toObject());
  if (files.length + folders.length === 0) {
    console.log(terminalText(`Nothing is held back under ${root}`));
    return 0;
  }
  const counts = [
    ...(files.length ? [files.length === 1 ? "1 file" : `${files.length} files`] : []),
    ...(folders.length ? [folders.length === 1 ? "1 folder" : `${folders.length} folders`] : []),
  ];
  console.log(`Allowed ${counts.join(" and ")}:`);
  for (const path of files) console.log(terminalText(`  ${path}`));
  for (const path of folders) console.log(terminalText(`  ${path}/ (the whole folder)`));
  return 0;
}
