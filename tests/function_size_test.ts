/**
 * The size rule of main.ts, lib/ and sandbox/ (STYLE.md "Size budget"): no function, method,
 * arrow function or function expression runs over 80 lines, counted from the first line of its
 * declaration to its last. `longFunctions()` takes the repository root, so a test can plant a
 * long function in a temporary tree.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./_source_files.ts";
import ts from "typescript";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MAX_LINES = 80;

/** A function over the limit: where it starts, the name it is known by, and its length. */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function describe(f: LongFunction): string {
  return `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;
}

function propertyName(name: ts.PropertyName | ts.BindingName): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return "[computed]";
}

/** The name a function node is known by in the text of `source`, or undefined if it has none. */
function ownName(node: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? "default";
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (
    ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  ) return propertyName(node.name);
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) return propertyName(parent.name);
  return undefined;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) || ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node);
}

/** The long functions of one file's text; nested functions are measured on their own too. */
export function longFunctionsIn(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node, scope: string) => {
    let inner = scope;
    if (ts.isClassLike(node)) inner = `${scope}${node.name?.text ?? "(class)"}.`;
    if (isFunction(node)) {
      const name = `${scope}${ownName(node) ?? "(anonymous)"}`;
      const line = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - line + 1;
      if (lines > MAX_LINES) found.push({ file, line, name, lines });
      inner = `${name} > `;
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, "");
  return found;
}

/** The long functions of main.ts, lib/ and sandbox/ under `root` (test files excluded). */
export async function longFunctions(root: string): Promise<LongFunction[]> {
  const files: string[] = [];
  for (const dir of ["lib", "sandbox"]) {
    for await (
      const f of sourceFiles(root, dir, (path) => path.endsWith("_test.ts"))
    ) files.push(f);
  }
  try {
    await Deno.lstat(join(root, "main.ts"));
    files.unshift("main.ts");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const found: LongFunction[] = [];
  for (const file of files) {
    found.push(...longFunctionsIn(file, await Deno.readTextFile(join(root, file))));
  }
  return found;
}

Deno.test(`no function in lib/, sandbox/ or main.ts runs over ${MAX_LINES} lines`, async () => {
  const found = await longFunctions(REPO);
  assert.deepEqual(found.map(describe), [], "split each into smaller named functions");
});

/** A function declaration that spans exactly `lines` lines. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`export function ${name}(): void {`, ...body, "}", ""].join("\n");
}

Deno.test("longFunctions() reports an 81-line function planted in a tree, not an 80-line one", async () => {
  const root = await Deno.makeTempDir({ prefix: "function-size-" });
  try {
    await Deno.mkdir(join(root, "lib/planted"), { recursive: true });
    const text = [
      "/** Planted. */",
      functionOf("tooLong", 81),
      functionOf("justFits", 80),
      "export const arrow = () => {",
      ...Array.from({ length: 80 }, () => "  void 0;"),
      "};",
      "export class Holder {",
      `  method(): void {`,
      ...Array.from({ length: 79 }, () => "    void 0;"),
      "  }",
      "}",
      "",
    ].join("\n");
    await Deno.writeTextFile(join(root, "lib/planted/long.ts"), text);
    await Deno.writeTextFile(join(root, "lib/planted/long_test.ts"), functionOf("inTest", 100));
    const found = await longFunctions(root);
    assert.deepEqual(found.map(describe), [
      "lib/planted/long.ts:2 tooLong (81 lines)",
      "lib/planted/long.ts:165 arrow (82 lines)",
      "lib/planted/long.ts:248 Holder.method (81 lines)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("longFunctionsIn() names anonymous and nested functions by where they sit", () => {
  const callback = [
    "export function outer() {",
    "  return [1].map((n) => {",
    ...Array.from({ length: 80 }, () => "    void n;"),
    "  });",
    "}",
  ].join("\n");
  assert.deepEqual(longFunctionsIn("x.ts", callback).map(describe), [
    "x.ts:1 outer (84 lines)",
    "x.ts:2 outer > (anonymous) (82 lines)",
  ]);
});
