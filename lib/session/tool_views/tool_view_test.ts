import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadHarness } from "../../harness/load.ts";
import type { Harness } from "../../harness/types.ts";
import { dispatchToolCall } from "../../loop/dispatch.ts";
import { ToolHookChain } from "../../loop/tool_hooks.ts";
import { type TempWorkspace, tempWorkspace } from "../../tools/_test_workspace.ts";
import { fsRead } from "../../tools/fs_read.ts";
import type { LoopEvent } from "../../loop/events.ts";
import { progressLines } from "../../modes/term/progress.ts";
import { makeStyle } from "../../modes/term/style.ts";
import { Transcript } from "../../modes/repl/render.ts";
import type { SessionEvent } from "../open.ts";
import { ToolCallViews, type ToolView, toolView } from "./tool_view.ts";

const BUILTIN = fileURLToPath(new URL("../../../harnesses/", import.meta.url));
const harnesses = new Map<string, Harness>();

async function harness(id: string): Promise<Harness> {
  let h = harnesses.get(id);
  if (!h) harnesses.set(id, h = await loadHarness(id, { builtinDir: BUILTIN }));
  return h;
}

/**
 * Runs one wire-level call through the loop's dispatch (harness mapping, the capability on the
 * temp workspace, result rendering) and returns the views of its start and its end, paired the
 * way a front end pairs them. `deny` refuses the call on the approval path.
 */
async function callViews(
  ws: TempWorkspace,
  call: { harness: string; name: string; args: unknown },
  opts: { deny?: string } = {},
): Promise<{ start: ToolView; end: ToolView }> {
  const events: SessionEvent[] = [{
    type: "session_started",
    info: {
      cwd: ws.dir,
      model: "m",
      provider: "p",
      wireApi: "chat",
      harness: call.harness,
      sandbox: "",
    },
  }];
  await dispatchToolCall({ id: "c1", name: call.name, args: call.args }, {
    harness: await harness(call.harness),
    ctx: ws.ctx,
    emit: (e) => events.push(e),
    hooks: new ToolHookChain([{
      name: "deny",
      before: (c) => {
        if (!opts.deny) return Promise.resolve(undefined);
        events.push({ type: "tool_denied", callId: c.id, reason: opts.deny });
        return Promise.resolve({ action: "deny", reason: opts.deny });
      },
    }]),
  });
  const calls = new ToolCallViews();
  const [start, end] = events.map((e) => calls.see(e)).filter((v) => v !== undefined);
  assert.equal(start.callId, "c1");
  assert.equal(end.callId, "c1");
  return { start, end };
}

/** A view with what differs between harnesses and runs (tool name, workspace, timing) taken out. */
function comparable(view: ToolView, ws: TempWorkspace): unknown {
  const { name: _n, callId: _c, ...rest } = view;
  if ("durationMs" in rest) delete rest.durationMs;
  return JSON.parse(JSON.stringify(rest).replaceAll(ws.dir, "<ws>"));
}

/** Runs each call on its own fresh workspace and returns the comparable end views. */
async function sameViewAcross(
  files: Record<string, string>,
  calls: Array<{ harness: string; name: string; args: unknown }>,
  setup: (ws: TempWorkspace) => unknown = () => {},
): Promise<unknown> {
  const seen: unknown[] = [];
  for (const call of calls) {
    await using ws = await tempWorkspace(files);
    await setup(ws);
    const { end } = await callViews(ws, call);
    assert.equal(end.status, "done", `${call.harness} ${call.name}: ${end.error}`);
    seen.push(comparable(end, ws));
  }
  for (const [i, view] of seen.entries()) {
    assert.deepEqual(view, seen[0], `${calls[i].harness} ${calls[i].name}`);
  }
  return seen[0];
}

Deno.test("toolView() shows a command with its exit code and output under every harness", async () => {
  const command = "printf 'one\\ntwo\\n'; exit 3";
  const view = await sameViewAcross({}, [
    { harness: "claude-code", name: "Bash", args: { command } },
    { harness: "opencode", name: "bash", args: { command, description: "print" } },
    { harness: "qwen-code", name: "run_shell_command", args: { command } },
    { harness: "native", name: "exec_command", args: { cmd: command } },
  ]);
  assert.deepEqual(view, {
    capability: "shell.run",
    status: "done",
    kind: "command",
    command,
    cwd: ".",
    exitCode: 3,
    output: "one\ntwo\n",
    timedOut: false,
  });
});

Deno.test("toolView() shows a command as running from its start alone", async () => {
  await using ws = await tempWorkspace();
  const { start, end } = await callViews(ws, {
    harness: "claude-code",
    name: "Bash",
    args: { command: "sleep 0.05" },
  });
  assert.deepEqual(comparable(start, ws), {
    capability: "shell.run",
    status: "running",
    kind: "command",
    command: "sleep 0.05",
  });
  assert.ok(end.kind === "command" && (end.durationMs ?? 0) >= 50, JSON.stringify(end));
});

Deno.test("toolView() gives a background start its job id, and the job's output its exit code", async () => {
  for (
    const call of [
      {
        harness: "claude-code",
        name: "Bash",
        args: { command: "echo bg", run_in_background: true },
      },
      {
        harness: "qwen-code",
        name: "run_shell_command",
        args: { command: "echo bg", is_background: true },
      },
      { harness: "deepseek-tui", name: "task_shell_start", args: { command: "echo bg" } },
    ]
  ) {
    await using ws = await tempWorkspace();
    const { end } = await callViews(ws, call);
    assert.ok(end.kind === "command" && end.job, JSON.stringify(end));
    assert.equal(end.command, "echo bg");
    assert.equal(end.job.action, "start");
    assert.match(end.job.id ?? "", /^b[0-9a-f]{8}$/);
    const waited = await callViews(ws, {
      harness: "deepseek-tui",
      name: "task_shell_wait",
      args: { task_id: end.job.id, wait: true },
    });
    assert.deepEqual(comparable(waited.end, ws), {
      capability: "shell.output",
      status: "done",
      kind: "command",
      command: "echo bg",
      exitCode: 0,
      output: "bg\n",
      job: { id: end.job.id, action: "output", running: false },
    });
  }
});

Deno.test("toolView() shows an edit as one absolute path with its diff under every harness", async () => {
  const files = { "src/a.py": "x = 1\ny = 2\n" };
  const view = await sameViewAcross(files, [
    {
      harness: "claude-code",
      name: "Edit",
      args: { file_path: "src/a.py", old_string: "y = 2", new_string: "y = 3" },
    },
    {
      harness: "opencode",
      name: "edit",
      args: { filePath: "src/a.py", oldString: "y = 2", newString: "y = 3" },
    },
    {
      harness: "qwen-code",
      name: "edit",
      args: { file_path: "src/a.py", old_string: "y = 2", new_string: "y = 3" },
    },
  ], (ws) => fsRead.run({ path: "src/a.py" }, ws.ctx));
  assert.deepEqual(view, {
    capability: "fs.edit",
    status: "done",
    kind: "file_change",
    changes: [{
      path: "<ws>/src/a.py",
      displayPath: "src/a.py",
      kind: "update",
      diff: "--- src/a.py\n+++ src/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n",
    }],
  });
});

Deno.test("toolView() shows a new file written as an add with its diff under every harness", async () => {
  const view = await sameViewAcross({}, [
    { harness: "claude-code", name: "Write", args: { file_path: "n.txt", content: "hi\n" } },
    { harness: "opencode", name: "write", args: { filePath: "n.txt", content: "hi\n" } },
    { harness: "qwen-code", name: "write_file", args: { file_path: "n.txt", content: "hi\n" } },
  ]) as { changes: unknown[] };
  assert.deepEqual(view.changes, [{
    path: "<ws>/n.txt",
    displayPath: "n.txt",
    kind: "add",
    diff: "--- /dev/null\n+++ n.txt\n@@ -0,0 +1,1 @@\n+hi\n",
  }]);
});

const PATCH = [
  "*** Begin Patch",
  "*** Update File: a.py",
  "@@",
  "-old",
  "+new",
  "*** Add File: b.py",
  "+made",
  "*** Delete File: c.py",
  "*** End Patch",
].join("\n");

Deno.test("toolView() lists each patched file as add, update or delete, absolute, with its diff", async () => {
  const files = { "a.py": "old\n", "c.py": "gone\n" };
  const view = await sameViewAcross(files, [
    { harness: "native", name: "apply_patch", args: { input: PATCH } },
    {
      harness: "native",
      name: "exec_command",
      args: { cmd: `apply_patch <<'EOF'\n${PATCH}\nEOF` },
    },
    { harness: "deepseek-tui", name: "apply_patch", args: { patch: PATCH } },
  ]) as { changes: Array<{ path: string; kind: string; diff: string }> };
  assert.deepEqual(view.changes.map((c) => [c.kind, c.path]), [
    ["update", "<ws>/a.py"],
    ["add", "<ws>/b.py"],
    ["delete", "<ws>/c.py"],
  ]);
  assert.match(view.changes[0].diff, /^-old\n\+new\n$/m);
  assert.match(view.changes[1].diff, /^\+made$/m);
  assert.match(view.changes[2].diff, /^-gone$/m);
});

Deno.test("toolView() names a patch's files from its headers before it runs", async () => {
  await using ws = await tempWorkspace({ "a.py": "old\n", "c.py": "gone\n" });
  const { start } = await callViews(ws, {
    harness: "native",
    name: "apply_patch",
    args: { input: PATCH },
  });
  assert.ok(start.kind === "file_change");
  assert.deepEqual(start.changes.map((c) => [c.kind, c.path, c.diff]), [
    ["update", `${ws.dir}/a.py`, ""],
    ["add", `${ws.dir}/b.py`, ""],
    ["delete", `${ws.dir}/c.py`, ""],
  ]);
});

Deno.test("toolView() makes diffs for the editor's create, str_replace and insert", async () => {
  for (const h of ["minimal", "swe-agent"]) {
    await using ws = await tempWorkspace({ "a.txt": "one\ntwo\n" });
    const name = "str_replace_editor";
    const run = async (args: Record<string, unknown>) => {
      const { end } = await callViews(ws, {
        harness: h,
        name,
        args: { path: `${ws.dir}/a.txt`, ...args },
      });
      assert.ok(end.kind === "file_change", JSON.stringify(end));
      return end.changes;
    };
    const replaced = await run({ command: "str_replace", old_str: "two", new_str: "TWO\n2" });
    assert.deepEqual(replaced, [{
      path: `${ws.dir}/a.txt`,
      displayPath: `${ws.dir}/a.txt`,
      kind: "update",
      diff: `--- ${ws.dir}/a.txt\n+++ ${ws.dir}/a.txt\n@@\n-two\n+TWO\n+2\n`,
    }]);
    const inserted = await run({ command: "insert", insert_line: 1, new_str: "one and a half" });
    assert.match(inserted[0].diff, /\n@@ -1,0 \+2,1 @@\n\+one and a half\n$/);
    const { end } = await callViews(ws, {
      harness: h,
      name,
      args: { command: "create", path: `${ws.dir}/new.txt`, file_text: "a\nb\n" },
    });
    assert.ok(end.kind === "file_change");
    assert.equal(end.changes[0].kind, "add");
    assert.equal(
      end.changes[0].diff,
      `--- /dev/null\n+++ ${ws.dir}/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n`,
    );
  }
});

Deno.test("toolView() shows a notebook cell insert as added lines and a replace as a summary", async () => {
  const notebook = JSON.stringify({
    cells: [{
      cell_type: "code",
      id: "c0",
      source: ["x = 1"],
      metadata: {},
      outputs: [],
      execution_count: null,
    }],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  });
  for (const [h, name] of [["claude-code", "NotebookEdit"], ["qwen-code", "notebook_edit"]]) {
    await using ws = await tempWorkspace({ "n.ipynb": notebook });
    const insert = await callViews(ws, {
      harness: h,
      name,
      args: {
        notebook_path: "n.ipynb",
        cell_id: "c0",
        new_source: "y = 2",
        edit_mode: "insert",
        cell_type: "code",
      },
    });
    assert.ok(insert.end.kind === "file_change", JSON.stringify(insert.end));
    assert.deepEqual(insert.end.changes, [{
      path: `${ws.dir}/n.ipynb`,
      displayPath: "n.ipynb",
      kind: "update",
      diff: "--- n.ipynb\n+++ n.ipynb\n@@ cell 1 @@\n+y = 2\n",
      summary: "insert cell 1 (code)",
    }]);
    const replace = await callViews(ws, {
      harness: h,
      name,
      args: { notebook_path: "n.ipynb", cell_id: "c0", new_source: "x = 9" },
    });
    assert.ok(replace.end.kind === "file_change");
    assert.equal(replace.end.changes[0].summary, "replace cell 0 (code)");
    assert.equal(replace.end.changes[0].diff, "");
  }
});

Deno.test("toolView() shows a read file and its line window under every harness", async () => {
  const view = await sameViewAcross({ "r.txt": "a\nb\nc\n" }, [
    { harness: "claude-code", name: "Read", args: { file_path: "r.txt" } },
    { harness: "opencode", name: "read", args: { filePath: "r.txt" } },
    { harness: "qwen-code", name: "read_file", args: { file_path: "r.txt" } },
  ]);
  assert.deepEqual(view, {
    capability: "fs.read",
    status: "done",
    kind: "file_read",
    path: "<ws>/r.txt",
    displayPath: "r.txt",
    startLine: 1,
    endLine: 3,
    totalLines: 3,
  });
  await using ws = await tempWorkspace({ "r.txt": "a\nb\nc\n" });
  const viewed = await callViews(ws, {
    harness: "swe-agent",
    name: "str_replace_editor",
    args: { command: "view", path: `${ws.dir}/r.txt`, view_range: [2, 3] },
  });
  assert.deepEqual(comparable(viewed.end, ws), {
    capability: "fs.str_replace_editor",
    status: "done",
    kind: "file_read",
    path: "<ws>/r.txt",
    displayPath: "<ws>/r.txt",
    startLine: 2,
    endLine: 3,
  });
});

Deno.test("toolView() shows a grep, a glob and a listing as searches with their counts", async () => {
  const files = { "a.ts": "needle\n", "b.ts": "hay\n", "c.md": "needle\n" };
  const grep = await sameViewAcross(files, [
    { harness: "kimi-cli", name: "Grep", args: { pattern: "needle" } },
    { harness: "opencode", name: "grep", args: { pattern: "needle" } },
    { harness: "qwen-code", name: "grep_search", args: { pattern: "needle" } },
  ]);
  assert.deepEqual(grep, {
    capability: "fs.grep",
    status: "done",
    kind: "search",
    search: "grep",
    pattern: "needle",
    count: 2,
    truncated: false,
  });
  const glob = await sameViewAcross(files, [
    { harness: "kimi-cli", name: "Glob", args: { pattern: "*.ts" } },
    { harness: "opencode", name: "glob", args: { pattern: "*.ts" } },
    { harness: "qwen-code", name: "glob", args: { pattern: "*.ts" } },
  ]) as { search: string; count: number };
  assert.deepEqual([glob.search, glob.count], ["glob", 2]);
  const list = await sameViewAcross(files, [
    { harness: "deepseek-tui", name: "list_dir", args: { path: "." } },
  ]) as { search: string; pattern: string; count: number };
  assert.deepEqual([list.search, list.pattern, list.count], ["list", ".", 3]);
});

Deno.test("toolView() shows plans and todo lists as the same items under every harness", async () => {
  const items = [
    { text: "read the code", status: "completed" },
    { text: "fix the bug", status: "in_progress" },
    { text: "run the tests", status: "pending" },
  ];
  const plan = await sameViewAcross({}, [
    {
      harness: "native",
      name: "update_plan",
      args: { plan: items.map((i) => ({ step: i.text, status: i.status })) },
    },
    {
      harness: "deepseek-tui",
      name: "update_plan",
      args: { plan: items.map((i) => ({ step: i.text, status: i.status })) },
    },
  ]) as { items: unknown };
  assert.deepEqual(plan.items, items);
  const todo = await sameViewAcross({}, [
    {
      harness: "kimi-cli",
      name: "SetTodoList",
      args: { todos: items.map((i) => ({ title: i.text, status: i.status })) },
    },
    {
      harness: "opencode",
      name: "todowrite",
      args: {
        todos: items.map((i, n) => ({
          content: i.text,
          status: i.status,
          priority: "high",
          id: `${n}`,
        })),
      },
    },
    {
      harness: "zcode",
      name: "TodoWrite",
      args: {
        todos: items.map((i) => ({ content: i.text, status: i.status, activeForm: i.text })),
      },
    },
  ]);
  assert.deepEqual(todo, { capability: "todo.write", status: "done", kind: "plan", items });
});

Deno.test("toolView() shows a fetched page's URL and HTTP status under every harness", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("page text\n", { status: 200, headers: { "content-type": "text/plain" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/doc`;
  const view = await sameViewAcross(
    {},
    [
      { harness: "claude-code", name: "WebFetch", args: { url, prompt: "what is it" } },
      { harness: "opencode", name: "webfetch", args: { url, format: "text" } },
      { harness: "qwen-code", name: "web_fetch", args: { url, prompt: "what is it" } },
    ],
    (ws) => {
      ws.ctx.networkAllowed = true;
      ws.ctx.webFetch = { allowedHosts: ["127.0.0.1"] };
    },
  );
  assert.deepEqual(view, {
    capability: "web.fetch",
    status: "done",
    kind: "fetch",
    url,
    finalUrl: url,
    httpStatus: 200,
    bytes: 10,
  });
});

Deno.test("toolView() shows a sub-agent's task and outcome under every harness", async () => {
  const args = {
    description: "find configs",
    prompt: "Find the config files",
    subagent_type: "Explore",
  };
  const view = await sameViewAcross(
    {},
    [
      { harness: "claude-code", name: "Agent", args },
      { harness: "opencode", name: "task", args },
      { harness: "qwen-code", name: "agent", args },
    ],
    (ws) =>
      ws.ctx.runSubagent = () =>
        Promise.resolve({ finalText: "two files", toolCalls: 4, status: "completed" }),
  );
  assert.deepEqual(view, {
    capability: "agent.run",
    status: "done",
    kind: "subagent",
    prompt: "Find the config files",
    description: "find configs",
    agentType: "Explore",
    finalText: "two files",
    toolCalls: 4,
    outcome: "completed",
  });
});

Deno.test("toolView() shows questions and the user's answers under every harness", async () => {
  const options = [{ label: "sqlite", description: "a file" }, {
    label: "postgres",
    description: "a server",
  }];
  const question = { question: "Which database?", header: "DB", options };
  const view = await sameViewAcross(
    {},
    [
      {
        harness: "kimi-cli",
        name: "AskUserQuestion",
        args: { questions: [{ ...question, multi_select: false }] },
      },
      {
        harness: "zcode",
        name: "AskUserQuestion",
        args: { questions: [{ ...question, multiSelect: false }] },
      },
      {
        harness: "deepseek-tui",
        name: "request_user_input",
        args: { questions: [{ ...question, id: "db" }] },
      },
    ],
    (ws) =>
      ws.ctx.askUser = (qs) => Promise.resolve(qs.map((q) => ({ id: q.id, answers: ["sqlite"] }))),
  );
  assert.deepEqual(view, {
    capability: "user.ask",
    status: "done",
    kind: "question",
    questions: [{ question: "Which database?", header: "DB", answers: ["sqlite"] }],
    answered: true,
  });
});

Deno.test("toolView() falls back to the name, subject and result text for other capabilities", async () => {
  await using ws = await tempWorkspace();
  const { end } = await callViews(ws, {
    harness: "claude-code",
    name: "Skill",
    args: { skill: "none-such" },
  });
  assert.ok(end.kind === "generic", JSON.stringify(end));
  assert.equal(end.name, "Skill");
  assert.equal(end.subject, "none-such");
  assert.equal(end.text, end.error);
  assert.match(end.text, /none-such/);
});

Deno.test("toolView() marks a refused call declined and a failing one failed, keeping its input", async () => {
  await using ws = await tempWorkspace();
  const refused = await callViews(ws, {
    harness: "opencode",
    name: "bash",
    args: { command: "rm -rf build", description: "clean" },
  }, { deny: "The user refused" });
  assert.equal(refused.end.status, "declined");
  assert.ok(refused.end.kind === "command" && refused.end.command === "rm -rf build");
  assert.match(refused.end.error ?? "", /The user refused/);
  const missing = await callViews(ws, {
    harness: "claude-code",
    name: "Read",
    args: { file_path: "nope.txt" },
  });
  assert.equal(missing.end.status, "failed");
  assert.ok(missing.end.kind === "file_read" && missing.end.path === `${ws.dir}/nope.txt`);
  assert.match(missing.end.error ?? "", /nope\.txt/);
});

Deno.test("toolView() of a tool_end alone uses the input the event repeats", () => {
  const call = { id: "c9", name: "Write", args: {} };
  const view = toolView({
    type: "tool_end",
    call,
    capability: "fs.write",
    input: { path: "w.txt", content: "x" },
    text: "Permission denied",
    isError: true,
  }, { cwd: "/work" });
  assert.deepEqual(view, {
    callId: "c9",
    name: "Write",
    capability: "fs.write",
    status: "failed",
    error: "Permission denied",
    kind: "file_change",
    changes: [{ path: "/work/w.txt", displayPath: "w.txt", kind: "update", diff: "" }],
  });
});

Deno.test("progressLines() shows fs.write's diff in exec, and the REPL hides a declined call's end", async () => {
  await using ws = await tempWorkspace();
  const events: SessionEvent[] = [];
  await dispatchToolCall(
    { id: "w1", name: "Write", args: { file_path: "n.txt", content: "hi\n" } },
    {
      harness: await harness("claude-code"),
      ctx: ws.ctx,
      emit: (e) => events.push(e),
    },
  );
  const plain = makeStyle(false);
  assert.deepEqual(progressLines(events[1] as LoopEvent, plain), [
    "add n.txt",
    "--- /dev/null",
    "+++ n.txt",
    "@@ -0,0 +1,1 @@",
    "+hi",
  ]);
  const written: string[] = [];
  const transcript = new Transcript({
    write: (t) => written.push(t),
    style: plain,
    spinner: false,
    hideReasoning: false,
  });
  const call = { id: "d1", name: "Bash", args: {} };
  transcript.handle({
    type: "tool_start",
    call,
    capability: "shell.run",
    input: { command: "rm x" },
  });
  transcript.handle({ type: "tool_denied", callId: "d1", reason: "Blocked by policy" });
  transcript.handle({
    type: "tool_end",
    call,
    capability: "shell.run",
    text: "Blocked",
    isError: true,
  });
  assert.equal(written.join(""), "$ rm x\ndenied: Blocked by policy\n");
});
