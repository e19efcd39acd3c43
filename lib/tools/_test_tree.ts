import { join } from "node:path";
import { type TempWorkspace, tempWorkspace } from "./_test_workspace.ts";

/** A tree with ignore rules at two levels, hidden entries and a binary file. Test helper. */
const TREE: Record<string, string> = {
  ".gitignore": "build/\n*.log\n!keep.log\n/top.txt\n",
  "top.txt": "ignored at the root only\n",
  "keep.log": "kept by negation\n",
  "debug.log": "ignored\n",
  "README.md": "# readme\nTODO: write docs\n",
  "src/main.ts": "export const a = 1;\n// TODO: tidy\nconsole.log(a);\n",
  "src/util.tsx": "export function util() {\n  return 'todo';\n}\n",
  "src/top.txt": "not ignored: the rule is anchored\n",
  "src/build/out.js": "ignored folder\n",
  "src/.hidden.ts": "hidden\n",
  "src/lib/.gitignore": "*.gen.ts\n",
  "src/lib/deep.ts": "const deep = 'TODO';\n",
  "src/lib/x.gen.ts": "generated TODO\n",
  ".git/config": "[core]\n",
  "docs/a b.md": "spaces TODO\n",
  "docs/crlf.txt": "first\r\nTODO crlf\r\nlast\r\n",
};

/** Writes TREE into a workspace and gives each file a different mtime. Test helper. */
export async function treeWorkspace(): Promise<TempWorkspace> {
  const ws = await tempWorkspace(TREE);
  await Deno.writeFile(join(ws.dir, "src/blob.bin"), new Uint8Array([84, 79, 68, 79, 0, 1]));
  const files = [...Object.keys(TREE), "src/blob.bin"];
  for (const [i, f] of files.entries()) {
    const t = new Date(Date.UTC(2024, 0, 1) + i * 60_000);
    await Deno.utime(join(ws.dir, f), t, t);
  }
  return ws;
}
