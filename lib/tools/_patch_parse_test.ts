import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { parsePatch, stripHeredoc } from "./_patch_parse.ts";

Deno.test("parsePatch() reads add, delete, update and move sections", () => {
  const ops = parsePatch(
    [
      "*** Begin Patch",
      "*** Add File: new.txt",
      "+hello",
      "+world",
      "*** Delete File: old.txt",
      "*** Update File: src/a.ts",
      "*** Move to: src/b.ts",
      "@@ function f() {",
      " keep",
      "-gone",
      "+added",
      "",
      "@@",
      "-x",
      "+y",
      "*** End of File",
      "*** End Patch",
    ].join("\n"),
  );
  assert.deepEqual(ops, [
    { kind: "add", path: "new.txt", contents: "hello\nworld\n" },
    { kind: "delete", path: "old.txt" },
    {
      kind: "update",
      path: "src/a.ts",
      movePath: "src/b.ts",
      hunks: [
        {
          context: "function f() {",
          oldLines: ["keep", "gone", ""],
          newLines: ["keep", "added", ""],
          endOfFile: false,
        },
        { context: undefined, oldLines: ["x"], newLines: ["y"], endOfFile: true },
      ],
    },
  ]);
});

Deno.test("parsePatch() accepts a first hunk without @@ and a missing End Patch", () => {
  const ops = parsePatch("*** Begin Patch\n*** Update File: a\n-1\n+2\n");
  assert.deepEqual(ops, [{
    kind: "update",
    path: "a",
    movePath: undefined,
    hunks: [{ oldLines: ["1"], newLines: ["2"], endOfFile: false }],
  }]);
});

Deno.test("parsePatch() keeps only the trailing text of a unified-diff @@ range header", () => {
  const ops = parsePatch("*** Begin Patch\n*** Update File: a\n@@ -1,2 +1,2 @@ def f():\n-1\n+2");
  assert.equal(ops[0].kind === "update" && ops[0].hunks[0].context, "def f():");
  const bare = parsePatch("*** Begin Patch\n*** Update File: a\n@@ -1 +1 @@\n-1\n+2");
  assert.equal(bare[0].kind === "update" && bare[0].hunks[0].context, undefined);
});

Deno.test("parsePatch() tolerates CRLF line endings in the patch", () => {
  const ops = parsePatch("*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n");
  assert.deepEqual(ops, [{ kind: "add", path: "a", contents: "x\n" }]);
});

Deno.test("stripHeredoc() removes an apply_patch heredoc wrapper", () => {
  const inner = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch";
  assert.equal(stripHeredoc(`apply_patch <<'EOF'\n${inner}\nEOF\n`), inner);
  assert.equal(stripHeredoc(`apply_patch <<"PATCH"\n${inner}\nPATCH`), inner);
  assert.equal(stripHeredoc(`<<EOF\n${inner}\nEOF`), inner);
  assert.equal(stripHeredoc(inner), inner);
  assert.deepEqual(parsePatch(`apply_patch <<'EOF'\n${inner}\nEOF`), parsePatch(inner));
});

function rejects(patch: string, pattern: RegExp): void {
  assert.throws(
    () => parsePatch(patch),
    (err) => err instanceof ToolError && pattern.test(err.message),
  );
}

Deno.test("parsePatch() rejects malformed patches with the offending line", () => {
  rejects("*** Update File: a\n-1", /first line must be "\*\*\* Begin Patch"/);
  rejects("*** Begin Patch\n*** End Patch", /changes no files/);
  rejects("*** Begin Patch\nhello\n*** End Patch", /line 2 "hello" is not a file header/);
  rejects("*** Begin Patch\n*** Add File: a\nno plus\n", /line 3 in added file "a" does not start/);
  rejects("*** Begin Patch\n*** Update File: a\n@@\n~bad\n", /line 4 "~bad" in the update of "a"/);
  rejects("*** Begin Patch\n*** Update File: a\n*** End Patch", /update of "a" has no hunks/);
  rejects("*** Begin Patch\n*** Update File: a\n@@\n@@\n-x", /empty hunk/);
  rejects("*** Begin Patch\n*** Add File: \n+x", /missing file path at line 2/);
});
