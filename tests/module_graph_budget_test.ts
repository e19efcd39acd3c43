/**
 * The module-graph budget of each entry point (issue 30): the modules `deno run` loads before the
 * first request are the static import graph of main.ts, lib/cli/cli.ts and the command's module
 * (main.ts loads the last two by computed specifier). Each entry point's graph stays within its
 * module count and total bytes (our files and Deno-resolved modules; an npm package counts as the
 * specifiers we import from it) and names no npm package beyond its list. The budgets are the
 * graphs at issue 30's result plus 10% (exec: 292 modules, 1,460,278 bytes); raise one only with
 * `scripts/bench/all` still on target.
 * What a command needs later (MCP servers, hooks, checkpoints, Markdown, eval, review) is loaded
 * by `import()` where it is first used, which the static graph does not follow.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");

/** One entry point: the command module main.ts loads, and its budget. */
interface Budget {
  module?: string;
  modules: number;
  bytes: number;
  npm: string[];
}

const BUDGETS: Record<string, Budget> = {
  "--version": { modules: 8, bytes: 17715, npm: [] },
  exec: {
    module: "lib/modes/exec/exec.ts",
    modules: 322,
    bytes: 1606306,
    npm: ["commander", "picomatch", "smol-toml", "zod"],
  },
  repl: {
    module: "lib/modes/repl/repl.ts",
    modules: 337,
    bytes: 1668987,
    npm: ["commander", "picomatch", "smol-toml", "zod"],
  },
  acp: {
    module: "lib/modes/acp/acp.ts",
    modules: 327,
    bytes: 1637349,
    npm: ["@agentclientprotocol/sdk", "commander", "picomatch", "smol-toml", "zod"],
  },
  "mcp-server": {
    module: "lib/modes/mcp_server/mcp_server.ts",
    modules: 318,
    bytes: 1586480,
    npm: ["@modelcontextprotocol/sdk", "commander", "picomatch", "smol-toml", "zod"],
  },
};

interface InfoDependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface InfoModule {
  specifier: string;
  kind?: string;
  size?: number;
  npmPackage?: string;
  dependencies?: InfoDependency[];
}

interface Info {
  modules: InfoModule[];
  redirects: Record<string, string>;
}

/** What an entry point loads up front. */
export interface Graph {
  /** Module specifiers: files, npm specifiers, `node:` and other built-ins. */
  modules: Set<string>;
  /** Bytes of the modules with a size (every file; npm specifiers have none in `deno info`). */
  bytes: number;
  /** npm packages by name, without version. */
  npm: Set<string>;
}

async function denoInfo(file: string): Promise<Info> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(REPO, "deno.json"), file],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `deno info ${file} failed: ${stderr}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The name of an npm package id as `deno info` gives it: `@scope/name@1.2.3_peer@4` -> name. */
function packageName(id: string): string {
  return id.slice(0, id.indexOf("@", 1));
}

/** The union of the static import graphs of `files` (absolute paths), dynamic imports not followed. */
export async function staticGraph(files: string[]): Promise<Graph> {
  const graph: Graph = { modules: new Set(), bytes: 0, npm: new Set() };
  for (const file of files) {
    const info = await denoInfo(file);
    const byName = new Map(info.modules.map((m) => [m.specifier, m]));
    const todo = [new URL(`file://${file}`).href];
    while (todo.length > 0) {
      const specifier = info.redirects[todo.at(-1)!] ?? todo.at(-1)!;
      todo.pop();
      if (graph.modules.has(specifier)) continue;
      graph.modules.add(specifier);
      const module = byName.get(specifier);
      graph.bytes += module?.size ?? 0;
      if (module?.npmPackage) graph.npm.add(packageName(module.npmPackage));
      for (const dep of module?.dependencies ?? []) {
        if (dep.code && !dep.isDynamic) todo.push(dep.code.specifier);
      }
    }
  }
  return graph;
}

/** The static graph `main.ts` loads before `name`'s first request. */
function entryGraph(budget: Budget): Promise<Graph> {
  const roots = budget.module ? ["main.ts", "lib/cli/cli.ts", budget.module] : ["main.ts"];
  return staticGraph(roots.map((root) => join(REPO, root)));
}

/** The ways `graph` exceeds `budget`, each naming the entry point and by how much. */
export function overBudget(name: string, graph: Graph, budget: Budget): string[] {
  const problems: string[] = [];
  const grow = (what: string, now: number, limit: number) => {
    if (now > limit) {
      problems.push(`${name}: ${now} ${what}, ${now - limit} over its budget of ${limit}`);
    }
  };
  grow("modules", graph.modules.size, budget.modules);
  grow("bytes", graph.bytes, budget.bytes);
  const added = [...graph.npm].filter((name) => !budget.npm.includes(name)).sort();
  if (added.length > 0) {
    problems.push(`${name}: loads npm ${added.join(", ")} at start, beyond its list`);
  }
  return problems;
}

for (const [name, budget] of Object.entries(BUDGETS)) {
  Deno.test(`the ${name} entry point's static module graph stays within its budget`, async () => {
    const graph = await entryGraph(budget);
    const measured = `measured: ${graph.modules.size} modules, ${graph.bytes} bytes, npm ${
      [...graph.npm].sort().join(", ")
    }`;
    assert.deepEqual(overBudget(name, graph, budget), [], measured);
  });
}

Deno.test("staticGraph() follows static imports into npm packages and skips dynamic ones", async () => {
  const dir = await Deno.makeTempDir({ dir: REPO, prefix: ".graph_probe_" });
  try {
    const eager = join(dir, "eager.ts");
    const lazy = join(dir, "lazy.ts");
    await Deno.writeTextFile(eager, 'import "../lib/mcp/connection.ts";\n');
    await Deno.writeTextFile(
      lazy,
      'export const load = () => import("../lib/mcp/connection.ts");\n',
    );
    const eagerGraph = await staticGraph([eager]);
    assert.ok(eagerGraph.npm.has("@modelcontextprotocol/sdk"), [...eagerGraph.npm].join(", "));
    // Control: the same module behind import() is not part of the static graph.
    const lazyGraph = await staticGraph([lazy]);
    assert.deepEqual([...lazyGraph.modules], [new URL(`file://${lazy}`).href]);
    const problems = overBudget("probe", eagerGraph, { modules: 1, bytes: 10, npm: [] });
    assert.equal(problems.length, 3, problems.join("\n"));
    assert.match(problems[0], /^probe: \d+ modules, \d+ over its budget of 1$/);
    assert.match(problems[2], /^probe: loads npm .*@modelcontextprotocol\/sdk.* at start/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
