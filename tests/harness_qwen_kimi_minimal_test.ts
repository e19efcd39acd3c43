import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderResult, resolveCall } from "../lib/harness/call.ts";
import { loadHarness } from "../lib/harness/load.ts";

/** Argument mapping and result shapes of the qwen-code, kimi-cli and minimal harnesses. */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));
const load = (id: string) => loadHarness(id, { builtinDir: HARNESSES });

Deno.test("qwen-code: read_file's 0-based offset becomes fs.read's 1-based line", async () => {
  const h = await load("qwen-code");
  const first = resolveCall(h, { name: "read_file", args: { file_path: "a", offset: 0 } });
  assert.deepEqual(first.input, { path: "a", offset: 1 });
  const call = resolveCall(h, {
    name: "read_file",
    args: { file_path: "a", offset: 12, limit: 1 },
  });
  assert.deepEqual(call.input, { path: "a", offset: 13, limit: 1 });
  const text = renderResult(call.tool, {
    lines: ["x"],
    startLine: 13,
    totalLines: 18,
    endOfFile: false,
  });
  assert.equal(text, "Showing lines 13-13 of 18; the file continues. Read on with offset 13.\n\nx");
  assert.equal(
    renderResult(call.tool, { lines: ["a", "b"], startLine: 1, totalLines: 2, endOfFile: true }),
    "a\nb",
  );
});

Deno.test("qwen-code: is_background sends run_shell_command to shell.start", async () => {
  const h = await load("qwen-code");
  const fg = resolveCall(h, { name: "run_shell_command", args: { command: "ls", timeout: 5000 } });
  assert.equal(fg.capability.id, "shell.run");
  assert.deepEqual(fg.input, { command: "ls", timeout_ms: 5000 });
  const bg = resolveCall(h, {
    name: "run_shell_command",
    args: { command: "serve", is_background: true, description: "server", directory: "web" },
  });
  assert.equal(bg.capability.id, "shell.start");
  assert.deepEqual(bg.input, { command: "serve", description: "server", cwd: "web" });
  assert.equal(
    renderResult(bg.tool, { id: "b1", pid: 7, outputPath: "/t/b1.output" }),
    "Background command started as task b1 (PID 7). Its output goes to /t/b1.output; " +
      "read it with read_file and stop it with task_stop.",
  );
});

Deno.test("qwen-code: tool_search lists deferred tools without loading them", async () => {
  const h = await load("qwen-code");
  const call = resolveCall(h, { name: "tool_search", args: { query: "select:web_fetch" } });
  assert.deepEqual(call.input, { query: "select:web_fetch", load: false });
  assert.deepEqual(h.tools.filter((t) => t.deferred).map((t) => t.declaration.name), [
    "send_message",
    "web_fetch",
    "record_artifact",
    "report_findings",
    "zoom_image",
    "web_search",
    "monitor",
    "enter_worktree",
    "exit_worktree",
    "read_mcp_resource",
    "task_stop",
    "loop_wakeup",
    "cron_create",
    "cron_delete",
    "cron_list",
  ]);
});

Deno.test("kimi-cli: Shell reports success, failure and timeout as Kimi does", async () => {
  const h = await load("kimi-cli");
  const call = resolveCall(h, { name: "Shell", args: { command: "make", timeout: 60 } });
  assert.deepEqual(call.input, { command: "make", timeout_ms: 60000 });
  const out = { exitCode: 0, output: "ok\n", timedOut: false, timeoutMs: 60000, truncated: false };
  assert.equal(
    renderResult(call.tool, out),
    "<system>Command executed successfully.</system>\nok\n",
  );
  assert.equal(
    renderResult(call.tool, { ...out, exitCode: 2, output: "bad" }),
    "<system>ERROR: Command failed with exit code: 2.</system>\nbad",
  );
  assert.equal(
    renderResult(call.tool, { ...out, exitCode: null, timedOut: true, output: "…" }),
    "<system>ERROR: Command killed by timeout (60s)</system>\n…",
  );
  const bg = resolveCall(h, {
    name: "Shell",
    args: { command: "serve", run_in_background: true, description: "dev server" },
  });
  assert.equal(bg.capability.id, "shell.start");
  assert.deepEqual(bg.input, { command: "serve", description: "dev server" });
});

Deno.test("kimi-cli: Grep renders content ripgrep style and count_matches per file", async () => {
  const h = await load("kimi-cli");
  const content = resolveCall(h, {
    name: "Grep",
    args: { pattern: "x", output_mode: "content", "-C": 1, "-i": true, "-n": true },
  });
  assert.deepEqual(content.input, {
    pattern: "x",
    output_mode: "content",
    context: 1,
    case_insensitive: true,
  });
  const lines = [
    { path: "a.py", line: 1, text: "y", match: false },
    { path: "a.py", line: 2, text: "x", match: true },
  ];
  const base = { mode: "content", files: ["a.py"], lines, counts: [], truncated: false };
  assert.equal(renderResult(content.tool, base), "a.py-1-y\na.py:2:x");
  const counts = {
    ...base,
    mode: "count_matches",
    lines: [],
    counts: [{ path: "a.py", count: 3 }],
  };
  assert.equal(renderResult(content.tool, counts), "a.py:3");
  const files = { ...base, mode: "files_with_matches", lines: [] };
  assert.equal(renderResult(content.tool, files), "a.py");
  assert.equal(
    renderResult(content.tool, { ...files, files: [] }),
    "<system>No matches found.</system>",
  );
});

Deno.test("kimi-cli: StrReplaceFile takes one edit object or a list", async () => {
  const h = await load("kimi-cli");
  const one = resolveCall(h, {
    name: "StrReplaceFile",
    args: { path: "a", edit: { old: "x", new: "y" } },
  });
  assert.deepEqual(one.input, { path: "a", edits: [{ old_string: "x", new_string: "y" }] });
  const many = resolveCall(h, {
    name: "StrReplaceFile",
    args: { path: "a", edit: [{ old: "x", new: "y", replace_all: true }, { old: "p", new: "q" }] },
  });
  assert.deepEqual(many.input, {
    path: "a",
    edits: [{ old_string: "x", new_string: "y", replace_all: true }, {
      old_string: "p",
      new_string: "q",
    }],
  });
});

Deno.test("minimal: bash takes seconds and reports the exit code", async () => {
  const h = await load("minimal");
  assert.deepEqual(h.tools.map((t) => t.declaration.name), ["bash", "str_replace_editor"]);
  const call = resolveCall(h, { name: "bash", args: { command: "ls", timeout: 2 } });
  assert.deepEqual(call.input, { command: "ls", timeout_ms: 2000 });
  const out = { exitCode: 0, output: "", timedOut: false, timeoutMs: 2000, durationMs: 1500 };
  assert.equal(
    renderResult(call.tool, out),
    "Exit code: 0\nWall time: 1.5000 seconds\nOutput:\n<system>Command executed successfully.</system>",
  );
});
