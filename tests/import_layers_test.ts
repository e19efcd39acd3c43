import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** Which of our folders each layer may import from; imports flow one way, down this list. */
const ALLOWED: Record<string, string[]> = {
  "main.ts": [
    "lib/modes",
    "lib/approval/visible.ts",
    "lib/errors.ts",
    "lib/version.ts",
    "sandbox/fs_helper_main.ts",
  ],
  "lib/modes": [
    "lib/modes",
    "lib/session",
    "lib/loop",
    "lib/approval",
    "lib/config",
    "lib/harness",
    "lib/tools",
    "lib/providers",
    "lib/model",
    "lib/errors.ts",
    "lib/input_file.ts",
    "sandbox",
  ],
  "lib/loop": [
    "lib/loop",
    "lib/approval",
    "lib/harness",
    "lib/tools",
    "lib/providers",
    "lib/model",
    "lib/errors.ts",
  ],
  "lib/session": [
    "lib/session",
    "lib/model",
    "lib/errors.ts",
    "lib/input_file.ts",
    "lib/version.ts",
  ],
  "lib/approval": ["lib/approval", "lib/errors.ts"],
  "lib/config": ["lib/config", "lib/providers", "lib/errors.ts", "lib/input_file.ts"],
  "lib/harness": [
    "lib/harness",
    "lib/tools",
    "lib/providers/types.ts",
    "lib/model",
    "lib/errors.ts",
    "lib/input_file.ts",
  ],
  "lib/tools": ["lib/tools", "lib/model", "lib/errors.ts", "sandbox"],
  "lib/providers": ["lib/providers", "lib/model", "lib/errors.ts"],
  "lib/model": ["lib/model"],
  "lib/errors.ts": [],
  "lib/input_file.ts": ["lib/errors.ts"],
  "lib/version.ts": ["deno.json", "lib/_build_info.json"],
  "sandbox": ["sandbox"],
};

function layerOf(file: string): string | undefined {
  return Object.keys(ALLOWED).sort((a, b) => b.length - a.length)
    .find((layer) => file === layer || file.startsWith(`${layer}/`));
}

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(REPO, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) yield path;
  }
}

function relativeImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)];
  return specifiers.map((m) => m[1]);
}

Deno.test("imports in lib/, sandbox/ and main.ts only point down the layer order", async () => {
  const files = ["main.ts"];
  for (const dir of ["lib", "sandbox"]) for await (const f of sourceFiles(dir)) files.push(f);
  const violations: string[] = [];
  for (const file of files) {
    const layer = layerOf(file);
    if (!layer) {
      violations.push(`${file} belongs to no layer`);
      continue;
    }
    const text = await Deno.readTextFile(join(REPO, file));
    for (const spec of relativeImports(text)) {
      const target = relative(REPO, resolve(dirname(join(REPO, file)), spec));
      if (
        !ALLOWED[layer].some((allowed) => target === allowed || target.startsWith(`${allowed}/`))
      ) {
        violations.push(`${file} imports ${target}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});
