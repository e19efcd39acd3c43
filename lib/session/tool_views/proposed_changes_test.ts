import assert from "node:assert/strict";
import type { ApprovalQuestion } from "../../approval/hook.ts";
import { proposedChanges } from "./proposed_changes.ts";

function question(capability: string, input: unknown): ApprovalQuestion {
  return { capability, subject: JSON.stringify(input), reason: "r", unsandboxed: false };
}

Deno.test("proposedChanges() turns each file of a patch into a diff, a path resolved in cwd", () => {
  const patch = [
    "*** Begin Patch",
    "*** Add File: new.txt",
    "+one",
    "+two",
    "*** Update File: a.py",
    "*** Move to: b.py",
    "@@ def f():",
    "-    return 1",
    "+    return 2",
    "*** Delete File: /abs/gone.txt",
    "*** End Patch",
  ].join("\n");
  assert.deepEqual(proposedChanges(question("fs.apply_patch", { patch }), "/w"), [
    {
      path: "/w/new.txt",
      displayPath: "new.txt",
      kind: "add",
      diff: "@@ -0,0 +1,2 @@\n+one\n+two\n",
    },
    {
      path: "/w/a.py",
      displayPath: "a.py",
      kind: "update",
      diff: "@@ def f():\n-    return 1\n+    return 2\n",
      movedTo: "/w/b.py",
    },
    {
      path: "/abs/gone.txt",
      displayPath: "/abs/gone.txt",
      kind: "delete",
      diff: "",
      summary: "the file is removed",
    },
  ]);
});

Deno.test("proposedChanges() shows an edit's replacements and a write's text; none for a command", () => {
  const edits = { path: "a.py", edits: [{ old_string: "x = 1", new_string: "x = 2\ny = 3" }] };
  assert.deepEqual(proposedChanges(question("fs.edit", edits), "/w"), [
    { path: "/w/a.py", displayPath: "a.py", kind: "update", diff: "@@\n-x = 1\n+x = 2\n+y = 3\n" },
  ]);
  const single = { path: "a.py", old_string: "a", new_string: "b" };
  assert.equal(proposedChanges(question("fs.edit", single), "/w")[0].diff, "@@\n-a\n+b\n");
  const write = { path: "/abs/n.txt", content: "hi\n" };
  assert.deepEqual(proposedChanges(question("fs.write", write), "/w"), [
    { path: "/abs/n.txt", displayPath: "/abs/n.txt", kind: "add", diff: "@@ -0,0 +1,1 @@\n+hi\n" },
  ]);
  const replace = { command: "str_replace", path: "a.py", old_str: "a", new_str: "b" };
  assert.match(
    proposedChanges(question("fs.str_replace_editor", replace), "/w")[0].diff,
    /-a\n\+b/,
  );
  assert.deepEqual(
    proposedChanges(question("fs.str_replace_editor", { command: "view", path: "a" }), "/w"),
    [],
  );
  assert.deepEqual(proposedChanges(question("shell.run", { command: "ls" }), "/w"), []);
  assert.deepEqual(
    proposedChanges(
      { capability: "fs.edit", subject: "not json", reason: "", unsandboxed: false },
      "/w",
    ),
    [],
  );
});
