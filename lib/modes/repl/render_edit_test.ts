import assert from "node:assert/strict";
import { makeStyle } from "../term/style.ts";
import { testTranscript } from "./_test_transcript.ts";

const call = { id: "e1", name: "edit", args: {} };

Deno.test("an edit names its file once: a title over the diff's lines", () => {
  const { t, out } = testTranscript({ style: makeStyle(false) });
  const input = { path: "src/a.py", old_string: "x", new_string: "y" };
  t.handle({ type: "tool_start", call, capability: "fs.edit", input });
  const diff = "--- src/a.py\n+++ src/a.py\n@@ -1 +1 @@\n-x\n+y\n";
  const output = { path: "src/a.py", diff };
  t.handle({ type: "tool_end", call, capability: "fs.edit", output, text: "", isError: false });
  assert.equal(out(), "update src/a.py\n@@ -1 +1 @@\n-x\n+y\n");
});

Deno.test("a failed edit names the file it meant to change", () => {
  const { t, out } = testTranscript({ style: makeStyle(false) });
  const input = { path: "src/a.py", old_string: "x", new_string: "y" };
  t.handle({ type: "tool_start", call, capability: "fs.edit", input });
  t.handle({ type: "tool_end", call, capability: "fs.edit", text: "no match", isError: true });
  assert.match(out(), /^ {2}✗ edit src\/a\.py failed\n {4}no match\n$/);
});
