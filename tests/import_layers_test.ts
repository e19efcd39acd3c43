/**
 * The layer rules of lib/ and sandbox/ (README "Layout"): imports flow down the layer list, no
 * front end imports another (but `term/`, the shared terminal styling), and there is no import
 * cycle. `importProblems()` takes the repository root, so a test can plant a cycle in a copy.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

const LEAVES = [
  "lib/errors.ts",
  "lib/input_file.ts",
  "lib/version.ts",
  "lib/cancel.ts",
  "lib/nearest.ts",
];
const BELOW_LOOP = [
  "lib/trajectory",
  "lib/store",
  "lib/approval",
  "lib/config",
  "lib/harness",
  "lib/tools",
  "lib/providers",
  "lib/model",
  ...LEAVES,
  "sandbox",
];
const BELOW_SESSION = ["lib/workspace", "lib/hooks", "lib/mcp", "lib/loop", ...BELOW_LOOP];

/** Which of our folders each layer may import from; imports flow one way, down this list. */
const ALLOWED: Record<string, string[]> = {
  "main.ts": [
    "lib/cli",
    "lib/modes",
    "lib/approval/visible.ts",
    "lib/errors.ts",
    "lib/version.ts",
    "sandbox/fs_helper_main.ts",
  ],
  "lib/cli": ["lib/cli", "lib/modes", "lib/review", "lib/session", ...BELOW_SESSION],
  "lib/modes": ["lib/review", "lib/session", ...BELOW_SESSION],
  "lib/review": ["lib/review", "lib/session", ...BELOW_SESSION],
  "lib/session": ["lib/session", ...BELOW_SESSION],
  "lib/workspace": ["lib/workspace", "lib/loop", ...BELOW_LOOP],
  "lib/hooks": ["lib/hooks", "lib/loop", ...BELOW_LOOP],
  "lib/mcp": ["lib/mcp", "lib/loop", ...BELOW_LOOP],
  "lib/loop": [
    "lib/loop",
    "lib/approval",
    "lib/harness",
    "lib/tools",
    "lib/providers",
    "lib/model",
    "lib/errors.ts",
  ],
  "lib/trajectory": ["lib/trajectory", "lib/model", "lib/errors.ts"],
  "lib/store": ["lib/store", "lib/model", "lib/errors.ts", "lib/input_file.ts", "lib/version.ts"],
  "lib/approval": ["lib/approval", "lib/errors.ts", "lib/cancel.ts"],
  "lib/config": [
    "lib/config",
    "lib/providers",
    "lib/errors.ts",
    "lib/input_file.ts",
    "lib/nearest.ts",
  ],
  "lib/harness": [
    "lib/harness",
    "lib/tools",
    "lib/providers/types.ts",
    "lib/model",
    "lib/errors.ts",
    "lib/input_file.ts",
  ],
  "lib/tools": ["lib/tools", "lib/model", "lib/errors.ts", "lib/cancel.ts", "sandbox"],
  "lib/providers": ["lib/providers", "lib/model", "lib/errors.ts"],
  "lib/model": ["lib/model"],
  "lib/errors.ts": [],
  "lib/cancel.ts": [],
  "lib/nearest.ts": [],
  "lib/input_file.ts": ["lib/errors.ts"],
  "lib/version.ts": ["deno.json", "lib/_build_info.json"],
  "sandbox": ["sandbox"],
};

function layerOf(file: string): string | undefined {
  return Object.keys(ALLOWED).sort((a, b) => b.length - a.length)
    .find((layer) => file === layer || file.startsWith(`${layer}/`));
}

/** The front-end folder of a file under lib/modes (`exec`, `repl`, `term`, …). */
function frontEndOf(file: string): string | undefined {
  return file.match(/^lib\/modes\/([^/]+)\//)?.[1];
}

async function* sourceFiles(root: string, dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(root, path);
    else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) yield path;
  }
}

function relativeImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)];
  return specifiers.map((m) => m[1]);
}

/** Every non-test source file of main.ts, lib/ and sandbox/ with the files it imports. */
async function importGraph(root: string): Promise<Map<string, string[]>> {
  const files = ["main.ts"];
  for (const dir of ["lib", "sandbox"]) for await (const f of sourceFiles(root, dir)) files.push(f);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = await Deno.readTextFile(join(root, file));
    graph.set(
      file,
      relativeImports(text).map((spec) => relative(root, resolve(dirname(join(root, file)), spec))),
    );
  }
  return graph;
}

function layerViolation(file: string, target: string): string | undefined {
  const layer = layerOf(file);
  if (!layer) return `${file} belongs to no layer`;
  const mayImport = (allowed: string) => target === allowed || target.startsWith(`${allowed}/`);
  const front = frontEndOf(file);
  if (front) {
    const targetFront = frontEndOf(target);
    if (targetFront === front || targetFront === "term") return undefined;
    if (targetFront) return `${file} imports front end ${target}`;
  }
  return ALLOWED[layer].some(mayImport) ? undefined : `${file} imports ${target}`;
}

/** Each import cycle once, as `a -> b -> a`, found by depth-first search. */
export function importCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") {
        cycles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** The layer violations and import cycles under `root`. */
export async function importProblems(root: string): Promise<string[]> {
  const graph = await importGraph(root);
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const violation = layerViolation(file, target);
      if (violation && !problems.includes(violation)) problems.push(violation);
    }
  }
  const cycles = new Set(importCycles(graph).map((cycle) => `import cycle: ${cycle}`));
  return [...problems, ...cycles];
}

Deno.test("imports in lib/, sandbox/ and main.ts only point down the layer order", async () => {
  assert.deepEqual(await importProblems(REPO), []);
});

Deno.test("importProblems() reports a cycle planted in a copy of the tree, naming its files", async () => {
  const copy = await Deno.makeTempDir({ prefix: "import-layers-" });
  try {
    for (const part of ["main.ts", "lib", "sandbox"]) {
      const { success } = await new Deno.Command("cp", { args: ["-R", join(REPO, part), copy] })
        .output();
      assert.ok(success, `cp ${part}`);
    }
    const planted = join(copy, "lib/model/message.ts");
    await Deno.writeTextFile(planted, 'import "./mod.ts";\n', { append: true });
    await Deno.writeTextFile(join(copy, "sandbox/planted.ts"), 'import "../lib/model/mod.ts";\n');
    const problems = await importProblems(copy);
    assert.ok(
      problems.includes(
        "import cycle: lib/model/message.ts -> lib/model/mod.ts -> lib/model/message.ts",
      ),
      problems.join("\n"),
    );
    assert.ok(
      problems.includes("sandbox/planted.ts imports lib/model/mod.ts"),
      problems.join("\n"),
    );
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
