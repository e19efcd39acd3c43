import assert from "node:assert/strict";
import type { SessionEvent } from "../../session/open.ts";
import { toolView } from "../../session/tool_views/tool_view.ts";
import { diffHunks, planEntries, toolCallContent, toolCallHead } from "./tool_calls.ts";

type Start = Extract<SessionEvent, { type: "tool_start" }>;
type End = Extract<SessionEvent, { type: "tool_end" }>;

function start(capability: string, input: unknown, name = "tool"): Start {
  return { type: "tool_start", call: { id: "c1", name, args: {} }, capability, input };
}

function end(from: Start, output: unknown, text = "", isError = false): End {
  return { type: "tool_end", call: from.call, capability: from.capability, output, text, isError };
}

const DIFF = "--- habits.py\n+++ habits.py\n@@ -3,3 +3,3 @@\n     for a in b:\n" +
  "-        old()\n+        new()\n \n@@ -20,2 +20,3 @@\n x\n+y\n\\ No newline at end of file\n";

Deno.test("diffHunks() splits a unified diff into old and new text per hunk", () => {
  assert.deepEqual(diffHunks(DIFF), [
    {
      oldText: "    for a in b:\n        old()\n",
      newText: "    for a in b:\n        new()\n",
      newStart: 3,
    },
    { oldText: "x", newText: "x\ny", newStart: 20 },
  ]);
  assert.deepEqual(diffHunks("@@ def f():\n-a\n+b\n"), [{ oldText: "a", newText: "b" }]);
  assert.deepEqual(diffHunks(""), []);
});

Deno.test("toolCallHead() and toolCallContent() show an edit as a diff at its first line", () => {
  const s = start("fs.edit", { path: "habits.py" }, "Edit");
  const view = toolView(end(s, { path: "habits.py", diff: DIFF }), { start: s, cwd: "/repo" });
  assert.deepEqual(toolCallHead(view), {
    title: "Edit habits.py",
    kind: "edit",
    locations: [{ path: "/repo/habits.py", line: 3 }],
  });
  const content = toolCallContent(view, "ok");
  assert.equal(content.length, 2);
  assert.deepEqual(content[1], {
    type: "diff",
    path: "/repo/habits.py",
    oldText: "x",
    newText: "x\ny",
  });
});

Deno.test("toolCallContent() shows a new file without old text and a failure as its error", () => {
  const s = start("fs.write", { path: "new.txt" });
  const created = toolView(
    end(s, { path: "new.txt", created: true, diff: "@@ -0,0 +1 @@\n+hi\n" }),
    {
      start: s,
      cwd: "/repo",
    },
  );
  assert.equal(toolCallHead(created).title, "Create new.txt");
  assert.deepEqual(toolCallContent(created, ""), [
    { type: "diff", path: "/repo/new.txt", oldText: null, newText: "hi" },
  ]);
  const failed = toolView(end(s, undefined, "Permission denied", true), { start: s });
  assert.deepEqual(toolCallContent(failed, "Permission denied"), [
    { type: "content", content: { type: "text", text: "Permission denied" } },
  ]);
});

Deno.test("toolCallHead() names commands, reads, searches and MCP tools as a person would", () => {
  const head = (capability: string, input: unknown, output?: unknown) => {
    const s = start(capability, input, "wire_name");
    return toolCallHead(
      output === undefined ? toolView(s) : toolView(end(s, output), { start: s }),
    );
  };
  assert.deepEqual(head("shell.run", { command: "npm test\n# more" }), {
    title: "npm test",
    kind: "execute",
    locations: [],
  });
  const read = head("fs.read", { path: "/repo/a.py" }, {
    path: "a.py",
    absolutePath: "/repo/a.py",
    lines: ["x", "y"],
    startLine: 10,
  });
  assert.deepEqual(read, {
    title: "Read a.py (lines 10–11)",
    kind: "read",
    locations: [{ path: "/repo/a.py", line: 10 }],
  });
  assert.equal(head("fs.grep", { pattern: "TODO", path: "src" }).title, 'Search for "TODO" in src');
  assert.equal(head("web.fetch", { url: "https://x.dev" }).kind, "fetch");
  assert.deepEqual(head("source:docs/search", { q: 1 }), {
    title: "docs/search",
    kind: "other",
    locations: [],
  });
  assert.equal(head("todo.write", { todos: [] }).kind, "think");
});

Deno.test("toolCallContent() fences a command's output and says a non-zero exit code", () => {
  const s = start("shell.run", { command: "make" });
  const view = toolView(end(s, { command: "make", exitCode: 2, output: "boom\n" }), { start: s });
  assert.deepEqual(toolCallContent(view, ""), [
    { type: "content", content: { type: "text", text: "```\nboom\n```\nexit code 2" } },
  ]);
});

Deno.test("planEntries() gives every item medium priority and counts cancelled as completed", () => {
  assert.deepEqual(
    planEntries([{ text: "a", status: "in_progress" }, { text: "b", status: "cancelled" }]),
    [
      { content: "a", priority: "medium", status: "in_progress" },
      { content: "b", priority: "medium", status: "completed" },
    ],
  );
});
