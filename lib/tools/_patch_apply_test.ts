import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { applyHunks } from "./_patch_apply.ts";
import type { Hunk } from "./_patch_parse.ts";

function hunk(oldLines: string[], newLines: string[], extra: Partial<Hunk> = {}): Hunk {
  return { oldLines, newLines, endOfFile: false, ...extra };
}

Deno.test("applyHunks() replaces exactly matching lines", () => {
  assert.equal(applyHunks("a\nb\nc\n", [hunk(["b"], ["B"])], "f"), "a\nB\nc\n");
});

Deno.test("applyHunks() applies hunks in order after each other", () => {
  const text = "x\ny\nx\ny\n";
  const out = applyHunks(text, [hunk(["x"], ["1"]), hunk(["x"], ["2"])], "f");
  assert.equal(out, "1\ny\n2\ny\n");
});

Deno.test("applyHunks() uses the @@ context line as an anchor", () => {
  const text = "def a():\n    return 1\ndef b():\n    return 1\n";
  const out = applyHunks(
    text,
    [hunk(["    return 1"], ["    return 2"], { context: "def b():" })],
    "f",
  );
  assert.equal(out, "def a():\n    return 1\ndef b():\n    return 2\n");
});

Deno.test("applyHunks() falls back to trailing-whitespace and trimmed matches", () => {
  assert.equal(applyHunks("a  \nb\n", [hunk(["a", "b"], ["c"])], "f"), "c\n");
  assert.equal(applyHunks("  a\n", [hunk(["a"], ["  z"])], "f"), "  z\n");
  assert.equal(applyHunks("say “hi”\n", [hunk(['say "hi"'], ["bye"])], "f"), "bye\n");
});

Deno.test("applyHunks() prefers the file end for End of File hunks", () => {
  const out = applyHunks("end\nmid\nend\n", [hunk(["end"], ["END"], { endOfFile: true })], "f");
  assert.equal(out, "end\nmid\nEND\n");
});

Deno.test("applyHunks() appends pure additions at the end, or after the anchor", () => {
  assert.equal(applyHunks("a\n", [hunk([], ["b"])], "f"), "a\nb\n");
  assert.equal(applyHunks("a\nc\n", [hunk([], ["b"], { context: "a" })], "f"), "a\nb\nc\n");
  assert.equal(applyHunks("", [hunk([], ["new"])], "f"), "new\n");
});

Deno.test("applyHunks() keeps CRLF endings and a missing final newline", () => {
  assert.equal(applyHunks("a\r\nb\r\n", [hunk(["a"], ["A", "A2"])], "f"), "A\r\nA2\r\nb\r\n");
  assert.equal(applyHunks("a\nb", [hunk(["b"], ["B"])], "f"), "a\nB");
});

Deno.test("applyHunks() drops a trailing empty old line that the file does not have", () => {
  assert.equal(applyHunks("a\nb", [hunk(["b", ""], ["B", ""])], "f"), "a\nB");
});

Deno.test("applyHunks() finds a hunk placed before the previous one when it does not overlap", () => {
  const out = applyHunks("a\nb\nc\n", [hunk(["c"], ["C"]), hunk(["a"], ["A"])], "f");
  assert.equal(out, "A\nb\nC\n");
});

Deno.test("applyHunks() throws ToolError naming the file and the missing lines", () => {
  assert.throws(
    () => applyHunks("a\nb\n", [hunk(["b"], ["B"]), hunk(["zz", "yy"], ["q"])], "src/f.ts"),
    (err) =>
      err instanceof ToolError &&
      err.message ===
        'Cannot apply patch to "src/f.ts": hunk 2 of 2: cannot find these lines:\nzz\nyy' &&
      /Read the file again/.test(err.hint ?? ""),
  );
  assert.throws(
    () => applyHunks("a\n", [hunk(["a"], ["b"], { context: "nope" })], "f"),
    (err) => err instanceof ToolError && /cannot find the @@ context line "nope"/.test(err.message),
  );
});

Deno.test("applyHunks() rejects a hunk that overlaps an earlier one", () => {
  assert.throws(
    () => applyHunks("a\nb\n", [hunk(["a", "b"], ["x"]), hunk(["a"], ["y"])], "f"),
    (err) => err instanceof ToolError && /after the previous hunk/.test(err.message),
  );
});
