/**
 * `{{project_tree}}`: the working directory's folders and files, breadth-first, up to a number of
 * entries (Gemini CLI shows 200), drawn as a tree. Within a folder files come first, then
 * folders, each by name. Folders that are never worth listing (`.git`, `node_modules`, caches)
 * are shown but not opened; a folder whose entries are not all shown ends in `/...`.
 */
import { join } from "node:path";

/** Entries shown at most, files and folders together. */
export const PROJECT_TREE_ENTRIES = 200;

/** Folders shown but not opened. */
const NOT_OPENED = new Set([
  ".git",
  "node_modules",
  "__pycache__",
  ".venv",
  "venv",
  ".mypy_cache",
  ".pytest_cache",
  ".tox",
]);

interface Node {
  name: string;
  dir: boolean;
  children: Node[];
  /** Some entries of this folder are not shown (or it was not opened). */
  more: boolean;
}

/** The tree of `cwd` as text: `<cwd>/`, then one `├───name` line per entry shown. */
export async function projectTree(cwd: string, max = PROJECT_TREE_ENTRIES): Promise<string> {
  const root: Node = { name: cwd, dir: true, children: [], more: false };
  const queue: Array<{ node: Node; path: string }> = [{ node: root, path: cwd }];
  let shown = 0;
  while (queue.length > 0) {
    const { node, path } = queue.shift()!;
    if (shown >= max) {
      node.more = true;
      continue;
    }
    const entries = await sortedEntries(path);
    for (const entry of entries) {
      if (shown >= max) {
        node.more = true;
        break;
      }
      const child: Node = { name: entry.name, dir: entry.isDirectory, children: [], more: false };
      node.children.push(child);
      shown++;
      if (!entry.isDirectory) continue;
      if (NOT_OPENED.has(entry.name)) child.more = true;
      else queue.push({ node: child, path: join(path, entry.name) });
    }
  }
  return [`${cwd}/`, ...drawn(root.children, "")].join("\n");
}

async function sortedEntries(path: string): Promise<Deno.DirEntry[]> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(path)) entries.push(entry);
  } catch {
    return [];
  }
  const byName = (a: Deno.DirEntry, b: Deno.DirEntry) =>
    a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.name.localeCompare(b.name);
  return [
    ...entries.filter((e) => !e.isDirectory).sort(byName),
    ...entries.filter((e) => e.isDirectory).sort(byName),
  ];
}

function drawn(nodes: Node[], indent: string): string[] {
  return nodes.flatMap((node, i) => {
    const last = i === nodes.length - 1;
    const name = node.dir ? `${node.name}/${node.more ? "..." : ""}` : node.name;
    const line = `${indent}${last ? "└───" : "├───"}${name}`;
    return [line, ...drawn(node.children, `${indent}${last ? "    " : "│   "}`)];
  });
}
