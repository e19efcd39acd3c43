/** Test helpers: a temporary home and repository made of real files. */
import { dirname, join } from "node:path";

/** A temporary directory tree, removed on dispose. */
export interface TempTree extends AsyncDisposable {
  root: string;
  /** `<root>/home`, used as `OPENINTERPRETER_HOME`. */
  home: string;
  /** `<root>/repo`, a project root when `repo/.git` is among the files. */
  repo: string;
  env: Record<string, string | undefined>;
  write(path: string, text: string): Promise<void>;
}

/** Creates `<root>/home` and `<root>/repo` and writes `files` (paths relative to the root). */
export async function tempTree(files: Record<string, string> = {}): Promise<TempTree> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_config_" }));
  const write = async (path: string, text: string) => {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  };
  await Deno.mkdir(join(root, "home"));
  await Deno.mkdir(join(root, "repo"));
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return {
    root,
    home: join(root, "home"),
    repo: join(root, "repo"),
    env: { OPENINTERPRETER_HOME: join(root, "home") },
    write,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}
