import assert from "node:assert/strict";
import { emptyUsage } from "../../model/message.ts";
import { ExecJsonStream } from "./exec_json.ts";
import type { ThreadEvent } from "./exec_json_types.ts";
import type { SessionEvent } from "../../session/open.ts";

function stream() {
  const events: ThreadEvent[] = [];
  const json = new ExecJsonStream((e) => events.push(e));
  json.onEvent({
    type: "session_started",
    info: { cwd: "/ws", model: "m", provider: "p", wireApi: "chat", harness: "h", sandbox: "" },
  });
  return { json, events };
}

const call = (id: string, name = "tool") => ({ id, name, args: {} });

function start(id: string, capability: string, input: unknown): SessionEvent {
  return { type: "tool_start", call: call(id), capability, input };
}

function end(id: string, capability: string, output: unknown, isError = false): SessionEvent {
  return { type: "tool_end", call: call(id), capability, output, text: "error text", isError };
}

Deno.test("ExecJsonStream puts start-up warnings after thread.started, as error items", () => {
  const { json, events } = stream();
  json.onEvent({ type: "warning", message: "early" });
  json.threadStarted("t-1");
  json.turnStarted();
  json.onEvent({ type: "warning", message: "late" });
  assert.deepEqual(events, [
    { type: "thread.started", thread_id: "t-1" },
    { type: "item.completed", item: { id: "item_0", type: "error", message: "early" } },
    { type: "turn.started" },
    { type: "item.completed", item: { id: "item_1", type: "error", message: "late" } },
  ]);
});

Deno.test("ExecJsonStream maps commands by capability: exit code, failure and refusal", () => {
  const { json, events } = stream();
  json.onEvent(start("a", "shell.run", { command: "false" }));
  json.onEvent(end("a", "shell.run", { command: "false", exitCode: 1, output: "nope\n" }));
  json.onEvent(start("b", "shell.run", { command: "rm -rf /" }));
  json.onEvent({ type: "tool_denied", callId: "b", reason: "refused" });
  json.onEvent(end("b", "shell.run", undefined, true));
  assert.deepEqual(events.map((e) => e.type), [
    "item.started",
    "item.completed",
    "item.started",
    "item.completed",
  ]);
  assert.deepEqual((events[1] as { item: unknown }).item, {
    id: "item_0",
    type: "command_execution",
    command: "false",
    aggregated_output: "nope\n",
    exit_code: 1,
    status: "failed",
  });
  assert.deepEqual((events[3] as { item: unknown }).item, {
    id: "item_1",
    type: "command_execution",
    command: "rm -rf /",
    aggregated_output: "error text",
    status: "declined",
  });
});

Deno.test("ExecJsonStream follows a background job from start to its exit", () => {
  const { json, events } = stream();
  json.onEvent(start("s", "shell.start", { command: "make" }));
  json.onEvent(end("s", "shell.start", { id: "job1", command: "make" }));
  json.onEvent(start("o", "shell.output", { id: "job1" }));
  json.onEvent(end("o", "shell.output", { id: "job1", status: "running", output: "half" }));
  json.onEvent(end("o2", "shell.output", {
    id: "job1",
    status: "completed",
    exitCode: 0,
    output: "all",
  }));
  const items = events.map((e) => [e.type, (e as { item: { id: string } }).item]);
  assert.deepEqual(items.map(([type]) => type), ["item.started", "item.updated", "item.completed"]);
  assert.ok(items.every(([, item]) => (item as { id: string }).id === "item_0"));
  assert.deepEqual(items[2][1], {
    id: "item_0",
    type: "command_execution",
    command: "make",
    aggregated_output: "all",
    exit_code: 0,
    status: "completed",
  });
});

Deno.test("ExecJsonStream reports file changes with absolute paths, and web fetches", () => {
  const { json, events } = stream();
  json.onEvent(end("p", "fs.apply_patch", {
    changes: [{ path: "a.py", kind: "update" }, { path: "/abs/b.py", kind: "delete" }],
  }));
  json.onEvent(start("w", "web.fetch", { url: "https://example.com/" }));
  json.onEvent(end("w", "web.fetch", { url: "https://example.com/", status: 200 }));
  assert.deepEqual(events[0], {
    type: "item.completed",
    item: {
      id: "item_0",
      type: "file_change",
      changes: [{ path: "/ws/a.py", kind: "update" }, { path: "/abs/b.py", kind: "delete" }],
      status: "completed",
    },
  });
  const search = {
    id: "item_1",
    type: "web_search",
    query: "https://example.com/",
    action: { type: "open_page", url: "https://example.com/" },
  };
  assert.deepEqual(events.slice(1), [
    { type: "item.started", item: search },
    { type: "item.completed", item: search },
  ]);
});

Deno.test("ExecJsonStream reports a web search as a web_search item with a search action", () => {
  const { json, events } = stream();
  json.onEvent(start("s", "web.search", { query: "deno 2.9" }));
  json.onEvent(end("s", "web.search", { query: "deno 2.9", backend: "searxng", results: [] }));
  const item = {
    id: "item_0",
    type: "web_search",
    query: "deno 2.9",
    action: { type: "search", query: "deno 2.9" },
  };
  assert.deepEqual(events, [
    { type: "item.started", item },
    { type: "item.completed", item },
  ]);
});

Deno.test("ExecJsonStream keeps one todo list, updated in place and completed with the turn", () => {
  const { json, events } = stream();
  json.onEvent(end("t1", "todo.write", { todos: [{ content: "A", status: "pending" }] }));
  json.onEvent(end("t2", "plan.update", { plan: [{ step: "A", status: "completed" }] }));
  json.agentMessage("done");
  json.turnCompleted({ ...emptyUsage(), inputTokens: 7, outputTokens: 2 });
  assert.deepEqual(events.map((e) => e.type), [
    "item.started",
    "item.updated",
    "item.completed",
    "item.completed",
    "turn.completed",
  ]);
  assert.deepEqual(events[3], {
    type: "item.completed",
    item: { id: "item_0", type: "todo_list", items: [{ text: "A", completed: true }] },
  });
  assert.deepEqual(events[4], {
    type: "turn.completed",
    usage: {
      input_tokens: 7,
      cached_input_tokens: 0,
      cache_write_input_tokens: 0,
      output_tokens: 2,
      reasoning_output_tokens: 0,
    },
  });
});

Deno.test("ExecJsonStream: reasoning and commentary items; keystrokes read as commands", () => {
  const { json, events } = stream();
  json.onEvent({
    type: "assistant_message",
    message: {
      role: "assistant",
      blocks: [
        { type: "thinking", text: " think " },
        { type: "thinking", text: "" },
        { type: "text", text: "Looking." },
        { type: "tool_call", id: "k", name: "keys", args: {} },
      ],
      stop: "tool_calls",
      usage: emptyUsage(),
    },
  });
  json.onEvent(start("k", "terminal.keys", { keystrokes: "ls\n" }));
  json.onEvent(end("k", "terminal.keys", { output: "a.txt\n" }));
  const items = events.map((e) => (e as { item: Record<string, unknown> }).item);
  assert.deepEqual(items[0], { id: "item_0", type: "reasoning", text: "think" });
  assert.deepEqual(items[1], { id: "item_1", type: "agent_message", text: "Looking." });
  assert.deepEqual(items[3], {
    id: "item_2",
    type: "command_execution",
    command: "ls\n",
    aggregated_output: "a.txt\n",
    status: "completed",
  });
});

Deno.test("ExecJsonStream: a provider failure is a top-level error, then turn.failed", () => {
  const { json, events } = stream();
  json.onEvent({
    type: "retry",
    attempt: 1,
    maxRetries: 2,
    delayMs: 0,
    reason: "stream dropped",
    discarded: true,
  });
  json.turnFailed("HTTP 400", { providerError: true });
  assert.deepEqual(events, [
    { type: "error", message: "Reconnecting... 1/2 (stream dropped)" },
    { type: "error", message: "HTTP 400" },
    { type: "turn.failed", error: { message: "HTTP 400" } },
  ]);
});

Deno.test("ExecJsonStream: an MCP call refused before it ran is a failed mcp_tool_call with the error", () => {
  const { json, events } = stream();
  const capability = "source:docs/search";
  json.onEvent(start("m", capability, { q: "x" }));
  json.onEvent({ type: "tool_denied", callId: "m", reason: "refused" });
  json.onEvent(end("m", capability, undefined, true));
  const item = {
    id: "item_0",
    type: "mcp_tool_call",
    server: "docs",
    tool: "search",
    arguments: { q: "x" },
    result: null,
    error: null,
    status: "in_progress",
  };
  assert.deepEqual(events, [
    { type: "item.started", item },
    {
      type: "item.completed",
      item: { ...item, error: { message: "error text" }, status: "failed" },
    },
  ]);
});
