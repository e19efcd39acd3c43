/**
 * The file-size rule (STYLE.md "Size budget"): no TypeScript file of main.ts, lib/, sandbox/,
 * scripts/ or tests/ runs over 400 lines. A file that long has taken on a second concern; split it
 * by concern, not at the number. `longFiles()` takes the repository root, so a test can plant a
 * long file in a temporary tree.
 *
 * Exempt, and why:
 * - test files (`*_test.ts`): a test file holds the cases of one unit, its length follows the
 *   cases, and a case reads best beside its control; a test that hides other failures is split
 *   by what it proves, not by this count.
 * - `tests/fixtures/`: inputs shaped as the case that reads them needs (vendor captures, session
 *   files, scripted programs), never edited as code.
 * Generated files are data (`lib/providers/catalog.json`, `harnesses/harness.schema.json`), not
 * TypeScript, so they are not counted at all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./_source_files.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MAX_LINES = 400;
const DIRS = ["lib", "sandbox", "scripts", "tests"];
/** Folders never read: fixtures (see above) and installed packages. */
const SKIPPED = ["tests/fixtures", "scripts/deno/node_modules"];

/** A file over the limit and its length in lines. */
export interface LongFile {
  file: string;
  lines: number;
}

function exempt(path: string): boolean {
  return path.endsWith("_test.ts") || SKIPPED.some((d) => path === d || path.startsWith(`${d}/`));
}

/** Lines as `wc -l` counts them, plus a last line without its newline. */
export function lineCount(text: string): number {
  const newlines = text.split("\n").length - 1;
  return text === "" || text.endsWith("\n") ? newlines : newlines + 1;
}

/** The files over the limit under `root`, longest first. */
export async function longFiles(root: string): Promise<LongFile[]> {
  const files: string[] = [];
  for (const dir of DIRS) for await (const f of sourceFiles(root, dir, exempt)) files.push(f);
  try {
    await Deno.lstat(join(root, "main.ts"));
    files.unshift("main.ts");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const found: LongFile[] = [];
  for (const file of files) {
    const lines = lineCount(await Deno.readTextFile(join(root, file)));
    if (lines > MAX_LINES) found.push({ file, lines });
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

Deno.test(`no source file in main.ts, lib/, sandbox/, scripts/ or tests/ runs over ${MAX_LINES} lines`, async () => {
  const found = await longFiles(REPO);
  assert.deepEqual(
    found.map((f) => `${f.file} (${f.lines} lines)`),
    [],
    "split each by concern into files whose names say what they hold",
  );
});

function linesOf(n: number): string {
  return Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join("");
}

Deno.test("longFiles() reports a 401-line file planted in a tree, not a 400-line one or the exempt", async () => {
  const root = await Deno.makeTempDir({ prefix: "file-size-" });
  try {
    for (const dir of ["lib/planted", "tests/fixtures/big", "scripts"]) {
      await Deno.mkdir(join(root, dir), { recursive: true });
    }
    await Deno.writeTextFile(join(root, "lib/planted/long.ts"), linesOf(401));
    await Deno.writeTextFile(join(root, "lib/planted/fits.ts"), linesOf(400));
    await Deno.writeTextFile(join(root, "lib/planted/unended.ts"), linesOf(400) + "void 0;");
    await Deno.writeTextFile(join(root, "lib/planted/long_test.ts"), linesOf(900));
    await Deno.writeTextFile(join(root, "tests/fixtures/big/capture.ts"), linesOf(900));
    await Deno.writeTextFile(join(root, "scripts/tool.ts"), linesOf(402));
    await Deno.writeTextFile(join(root, "main.ts"), linesOf(10));
    const found = await longFiles(root);
    assert.deepEqual(found, [
      { file: "scripts/tool.ts", lines: 402 },
      { file: "lib/planted/long.ts", lines: 401 },
      { file: "lib/planted/unended.ts", lines: 401 },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("lineCount() counts lines as wc -l does, and a last line without its newline", () => {
  assert.equal(lineCount(""), 0);
  assert.equal(lineCount("a\n"), 1);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount("a\n\n"), 2);
});
