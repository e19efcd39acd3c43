/**
 * Tab after `@` at the REPL's prompt (issue 34 §3): completes the path being typed from the
 * folder it names, folders with a trailing `/`, dot files only once a `.` is typed. The line
 * editor calls it with the text up to the cursor; any other word is left to the editor.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Most names offered at once. */
const MAX_COMPLETIONS = 200;

/**
 * The completions of the `@path` word that ends `line` (readline's completer result: the
 * candidates, each starting with the word, and the word); no candidates for any other word.
 */
export async function completeMention(
  line: string,
  cwd: string,
  home: string = homedir(),
): Promise<[string[], string]> {
  const word = /(?:^|[\s([{])(@[^\s`'"<>()[\]{}]*)$/.exec(line)?.[1];
  if (word === undefined) return [[], line];
  const typed = word.slice(1);
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const start = typed.slice(slash + 1);
  const base = /^~(\/|$)/.test(folder) ? join(home, folder.slice(1)) : resolve(cwd, folder || ".");
  const entries: string[] = [];
  try {
    for await (const entry of Deno.readDir(base)) {
      if (!entry.name.startsWith(start) || /\s/.test(entry.name)) continue;
      if (entry.name.startsWith(".") && !start.startsWith(".")) continue;
      const isDir = entry.isDirectory ||
        (entry.isSymlink &&
          (await Deno.stat(join(base, entry.name)).catch(() => null))?.isDirectory);
      entries.push(`@${folder}${entry.name}${isDir ? "/" : ""}`);
    }
  } catch {
    return [[], word];
  }
  return [entries.sort().slice(0, MAX_COMPLETIONS), word];
}
