import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "./load.ts";
import { renderResult } from "./call.ts";
import type { Harness, HarnessTool } from "./types.ts";

const BUILTIN = fileURLToPath(new URL("../../harnesses/", import.meta.url));
const kimi = await loadHarness("kimi-code", { builtinDir: BUILTIN });
const deepseek = await loadHarness("deepseek-tui", { builtinDir: BUILTIN });

function tool(h: Harness, name: string): HarnessTool {
  const found = h.tools.find((t) => t.declaration.name === name);
  assert.ok(found, `${h.id} has no tool ${name}`);
  return found;
}

const grepLines = [
  { path: "a.py", line: 1, text: "x = 1", match: false },
  { path: "a.py", line: 2, text: "y = x", match: true },
  { path: "a.py", line: 3, text: "print(y)", match: false },
];

function grep(mode: string, extra: Record<string, unknown> = {}) {
  return { root: ".", mode, files: ["a.py"], lines: [], counts: [], truncated: false, ...extra };
}

Deno.test("renderResult() renders kimi Grep like ripgrep in every output mode", () => {
  const t = tool(kimi, "Grep");
  assert.equal(renderResult(t, grep("files_with_matches")), "a.py");
  assert.equal(
    renderResult(t, grep("content", { lines: grepLines })),
    "a.py-1-x = 1\na.py:2:y = x\na.py-3-print(y)",
  );
  assert.equal(renderResult(t, grep("count", { counts: [{ path: "a.py", count: 4 }] })), "a.py:4");
  assert.equal(
    renderResult(t, grep("content", { files: [] })),
    "<system>Tool output is empty.</system>",
  );
});

Deno.test("renderResult() renders kimi Bash success, failure and timeout lines", () => {
  const t = tool(kimi, "Bash");
  const base = { output: "", exitCode: 0, timedOut: false, timeoutMs: 60_000 };
  assert.equal(renderResult(t, base), "<system>Tool output is empty.</system>");
  assert.equal(renderResult(t, { ...base, output: "hi\n" }), "hi\n");
  assert.equal(
    renderResult(t, { ...base, output: "boom", exitCode: 2 }),
    "boom\n<system>ERROR: Command failed with exit code: 2.</system>",
  );
  assert.equal(
    renderResult(t, { ...base, exitCode: null, timedOut: true }),
    "<system>ERROR: Command killed by timeout (60s).</system>",
  );
});

Deno.test("renderResult() renders the kimi TodoList and its cleared form", () => {
  const t = tool(kimi, "TodoList");
  const todos = [{ content: "Fix it", status: "completed" }];
  assert.equal(
    renderResult(t, { todos, checklist: "[done] Fix it" }),
    "Todo list updated.\nCurrent todo list:\n  [done] Fix it\n\n" +
      "Keep the list current: mark each item done as soon as it is finished.",
  );
  assert.equal(renderResult(t, { todos: [], checklist: "" }), "Todo list cleared.");
});

Deno.test("renderResult() renders deepseek grep_files matches as JSON with context", () => {
  const text = renderResult(tool(deepseek, "grep_files"), grep("content", { lines: grepLines }));
  assert.deepEqual(JSON.parse(text), {
    matches: [{
      file: "a.py",
      line_number: 2,
      line: "y = x",
      context_before: ["x = 1"],
      context_after: ["print(y)"],
    }],
    total_matches: 1,
    truncated: false,
  });
});

Deno.test("renderResult() renders deepseek list_dir, checklist and plan results", () => {
  const listing = renderResult(tool(deepseek, "list_dir"), {
    root: ".",
    entries: [{ path: "src", kind: "dir", size: null }, { path: "a.py", kind: "file", size: 3 }],
    truncated: false,
  });
  assert.deepEqual(JSON.parse(listing), [
    { name: "src", is_dir: true },
    { name: "a.py", is_dir: false },
  ]);
  const todos = [
    { content: "One", status: "completed" },
    { content: "Two", status: "in_progress" },
    { content: "Three", status: "pending" },
  ];
  assert.equal(
    renderResult(tool(deepseek, "checklist_write"), { todos }),
    "Todo list updated (3 items, 33% complete)\n" +
      '{"items":[{"id":1,"content":"One","status":"completed"},' +
      '{"id":2,"content":"Two","status":"in_progress"},' +
      '{"id":3,"content":"Three","status":"pending"}],"completion_pct":33,"in_progress_id":2}',
  );
  const plan = todos.map((t) => ({ step: t.content, status: t.status }));
  const text = renderResult(tool(deepseek, "update_plan"), { plan, explanation: "why" });
  const [head, ...json] = text.split("\n");
  assert.equal(head, "Plan updated: 1 pending, 1 in progress, 1 completed (33% done)");
  assert.deepEqual(JSON.parse(json.join("\n")), { explanation: "why", items: plan });
});
