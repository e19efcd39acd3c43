/**
 * The layer rules of lib/ and sandbox/ (README "Layout"): every file belongs to a layer, imports
 * flow down the layer list, no front end imports another (but `term/`, the shared terminal
 * styling), front ends reach what is below the session only through it (`BEHIND_SESSION`), no
 * import names an absolute path, and there is no import cycle. Specifiers in double, single and
 * back quotes count. `importProblems()` takes the repository root, so a test can plant problems in
 * a copy.
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
const BELOW_SESSION = [
  "lib/hooks",
  "lib/setups",
  "lib/workspace",
  "lib/mcp",
  "lib/loop",
  ...BELOW_LOOP,
];

/**
 * Front ends (lib/modes) reach these only through lib/session and lib/review. Type-only imports
 * (`import type`, or braces of `type` names only) are allowed from any layer below: they are
 * erased before the code runs and carry no behaviour.
 */
const BEHIND_SESSION = [
  "lib/loop",
  "lib/harness",
  "lib/providers",
  "lib/tools",
  "lib/store",
  "lib/hooks",
  "lib/workspace",
  "sandbox",
];

/**
 * The leaves behind the session that front ends may import at runtime: the loop's event and
 * outcome types. (The terminal sanitizer, lib/approval/visible.ts, and the message types of
 * lib/model are outside `BEHIND_SESSION`.)
 */
const FRONT_END_LEAVES = ["lib/loop/events.ts"];

/** Which of our folders each layer may import from; imports flow one way, down this list. */
const ALLOWED: Record<string, string[]> = {
  "main.ts": [
    "lib/cli",
    "lib/modes",
    "lib/approval/visible.ts",
    "lib/errors.ts",
    "lib/version.ts",
    "sandbox/fs_helper_main.ts",
    "sandbox/code_cell_main.ts",
  ],
  "lib/cli": ["lib/cli", "lib/modes", "lib/review", "lib/session", ...BELOW_SESSION],
  "lib/modes": ["lib/review", "lib/session", ...BELOW_SESSION],
  "lib/review": ["lib/review", "lib/session", ...BELOW_SESSION],
  "lib/session": ["lib/session", ...BELOW_SESSION],
  "lib/workspace": ["lib/workspace", "lib/loop", ...BELOW_LOOP],
  "lib/hooks": [
    "lib/hooks",
    "lib/setups",
    "lib/workspace/_file_checks.ts",
    "lib/loop",
    ...BELOW_LOOP,
  ],
  /** Other agents' setups (issue 33), read for the session and its hooks. */
  "lib/setups": ["lib/setups", "lib/workspace/_file_checks.ts", "lib/loop", ...BELOW_LOOP],
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

/** One import or re-export of a file: where it points and whether it brings types only. */
interface ImportLine {
  spec: string;
  typeOnly: boolean;
}

/**
 * The imports of a source text: static `import`/`export … from`, side-effect `import "…"` and
 * `import(…)`, with the specifier in double, single or back quotes (a back-quoted one with `${`
 * in it is computed and cannot be checked here).
 */
export function importLines(source: string): ImportLine[] {
  const fromClause =
    /(?:^|[;\n}])\s*(?:import|export)(\s+type\b)?([^;"'`]*?)\bfrom\s*(["'`])([^"'`$]+)\3/g;
  const bare = /\bimport\s*\(?\s*(["'`])([^"'`$]+)\1/g;
  return [
    ...[...source.matchAll(fromClause)].map((m) => ({
      spec: m[4],
      typeOnly: Boolean(m[1]) || allTypeNames(m[2]),
    })),
    ...[...source.matchAll(bare)].map((m) => ({ spec: m[2], typeOnly: false })),
  ];
}

/** `{ type A, type B }`: an import whose every name is a type carries no code either. */
function allTypeNames(clause: string): boolean {
  const names = clause.match(/^\s*\{([^}]*)\}\s*$/)?.[1].split(",").map((n) => n.trim())
    .filter(Boolean);
  return Boolean(names?.length) && names!.every((name) => name.startsWith("type "));
}

/** An import resolved against the repository: the file it names, or the specifier as written. */
interface Edge {
  target: string;
  typeOnly: boolean;
  absolute: boolean;
}

/** Every non-test source file of main.ts, lib/ and sandbox/ with the files it imports. */
async function importGraph(root: string): Promise<Map<string, Edge[]>> {
  const files = ["main.ts"];
  for (const dir of ["lib", "sandbox"]) for await (const f of sourceFiles(root, dir)) files.push(f);
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const lines = importLines(await Deno.readTextFile(join(root, file)));
    graph.set(
      file,
      lines.flatMap(({ spec, typeOnly }): Edge[] => {
        if (/^(\/|file:)/.test(spec)) return [{ target: spec, typeOnly, absolute: true }];
        if (!spec.startsWith(".")) return [];
        const target = relative(root, resolve(dirname(join(root, file)), spec));
        return [{ target, typeOnly, absolute: false }];
      }),
    );
  }
  return graph;
}

function layerViolation(file: string, edge: Edge): string | undefined {
  const { target } = edge;
  if (edge.absolute) return `${file} imports ${target} by an absolute path`;
  const layer = layerOf(file)!;
  const mayImport = (allowed: string) => target === allowed || target.startsWith(`${allowed}/`);
  const front = frontEndOf(file);
  if (front) {
    const targetFront = frontEndOf(target);
    if (targetFront === front || targetFront === "term") return undefined;
    if (targetFront) return `${file} imports front end ${target}`;
    const leaf = edge.typeOnly || FRONT_END_LEAVES.includes(target);
    if (!leaf && BEHIND_SESSION.some(mayImport)) {
      return `${file} imports ${target} instead of asking lib/session`;
    }
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
  for (const [file, edges] of graph) {
    if (!layerOf(file)) {
      problems.push(`${file} belongs to no layer`);
      continue;
    }
    for (const edge of edges) {
      const violation = layerViolation(file, edge);
      if (violation && !problems.includes(violation)) problems.push(violation);
    }
  }
  const targets = new Map([...graph].map(([file, edges]) => [file, edges.map((e) => e.target)]));
  const cycles = new Set(importCycles(targets).map((cycle) => `import cycle: ${cycle}`));
  return [...problems, ...cycles];
}

Deno.test("imports in lib/, sandbox/ and main.ts only point down the layer order", async () => {
  assert.deepEqual(await importProblems(REPO), []);
});

/** Runs `plant` on a copy of main.ts, lib/ and sandbox/, then returns the copy's problems. */
async function problemsOfCopy(plant: (copy: string) => Promise<void>): Promise<string[]> {
  const copy = await Deno.makeTempDir({ prefix: "import-layers-" });
  try {
    for (const part of ["main.ts", "lib", "sandbox"]) {
      const { success } = await new Deno.Command("cp", { args: ["-R", join(REPO, part), copy] })
        .output();
      assert.ok(success, `cp ${part}`);
    }
    await plant(copy);
    return await importProblems(copy);
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

async function plantFile(copy: string, file: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(join(copy, file)), { recursive: true });
  await Deno.writeTextFile(join(copy, file), text);
}

Deno.test("importProblems() reports a cycle planted in a copy of the tree, naming its files", async () => {
  const problems = await problemsOfCopy(async (copy) => {
    const planted = join(copy, "lib/model/message.ts");
    await Deno.writeTextFile(planted, 'import "./mod.ts";\n', { append: true });
    await plantFile(copy, "sandbox/planted.ts", 'import "../lib/model/mod.ts";\n');
  });
  assert.ok(
    problems.includes(
      "import cycle: lib/model/message.ts -> lib/model/mod.ts -> lib/model/message.ts",
    ),
    problems.join("\n"),
  );
  assert.ok(problems.includes("sandbox/planted.ts imports lib/model/mod.ts"), problems.join("\n"));
});

Deno.test("importProblems() reports back-quoted, absolute and layerless files planted in a copy", async () => {
  const problems = await problemsOfCopy(async (copy) => {
    await plantFile(copy, "lib/model/tick.ts", "import { x } from `../loop/agent_loop.ts`;\n");
    await plantFile(copy, "lib/model/dynamic.ts", "await import(`../store/mod.ts`);\n");
    await plantFile(copy, "lib/model/absolute.ts", `import "${copy}/lib/model/mod.ts";\n`);
    await plantFile(copy, "lib/newfolder/alone.ts", "export const alone = 1;\n");
    await plantFile(
      copy,
      "lib/modes/exec/below.ts",
      'import { runTurn } from "../../loop/agent_loop.ts";\n',
    );
    // Developer tools in lib/modes are front ends as any other.
    await plantFile(
      copy,
      "lib/modes/eval/below.ts",
      'import { openCommandSandbox } from "../../../sandbox/command_sandbox.ts";\n',
    );
    // Controls: type-only imports (either form) and the session itself are a front end's to use.
    await plantFile(
      copy,
      "lib/modes/exec/allowed.ts",
      [
        'import type { RunTurnOptions } from "../../loop/agent_loop.ts";',
        'import { type LoopEvent, type TurnOutcome } from "../../loop/events.ts";',
        "import { openSession } from `../../session/open.ts`;",
        "",
      ].join("\n"),
    );
  });
  const expected = [
    "lib/model/tick.ts imports lib/loop/agent_loop.ts",
    "lib/model/dynamic.ts imports lib/store/mod.ts",
    "lib/newfolder/alone.ts belongs to no layer",
    "lib/modes/exec/below.ts imports lib/loop/agent_loop.ts instead of asking lib/session",
    "lib/modes/eval/below.ts imports sandbox/command_sandbox.ts instead of asking lib/session",
  ];
  for (const problem of expected) {
    assert.ok(problems.includes(problem), `missing "${problem}" in:\n${problems.join("\n")}`);
  }
  const absolute = problems.filter((p) => p.startsWith("lib/model/absolute.ts"));
  assert.equal(absolute.length, 1, problems.join("\n"));
  assert.match(absolute[0], /^lib\/model\/absolute\.ts imports \/.+ by an absolute path$/);
  assert.deepEqual(problems.filter((p) => p.startsWith("lib/modes/exec/allowed.ts")), []);
  assert.equal(problems.length, expected.length + 1, problems.join("\n"));
});

Deno.test("importLines() reads every quote style and tells type-only imports apart", () => {
  const source = [
    'import type { A } from "./a.ts";',
    "import { type B, type C } from './b.ts';",
    "import { type D, e } from `./d.ts`;",
    'export * from "./f.ts";',
    "import {",
    "  g,",
    '} from "./g.ts";',
    'import "./side.ts";',
    "const m = await import(`./lazy.ts`);",
    "const n = await import(`./${name}.ts`);",
  ].join("\n");
  assert.deepEqual(
    importLines(source).map((l) => `${l.spec}${l.typeOnly ? " (types)" : ""}`).sort(),
    [
      "./a.ts (types)",
      "./b.ts (types)",
      "./d.ts",
      "./f.ts",
      "./g.ts",
      "./lazy.ts",
      "./side.ts",
    ],
  );
});
