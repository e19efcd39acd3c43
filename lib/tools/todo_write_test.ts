import assert from "node:assert/strict";
import { TODO_STATE_KEY, todoRead, todoWrite, todoWriteInput } from "./todo_write.ts";
import { tempWorkspace } from "./_test_workspace.ts";

Deno.test("todoWrite() replaces the session list and counts statuses", async () => {
  await using ws = await tempWorkspace();
  await todoWrite.run({ todos: [{ content: "old", status: "pending" }] }, ws.ctx);
  const input = todoWriteInput.parse({
    todos: [
      { content: "Read code", status: "completed", priority: "high" },
      { content: "Fix bug", status: "in_progress", priority: "medium", id: "2" },
      { content: "Write docs", status: "cancelled", priority: "low" },
      { content: "Run tests", status: "pending", activeForm: "Running tests" },
    ],
  });
  const out = await todoWrite.run(input, ws.ctx);
  assert.deepEqual(out.oldTodos, [{ content: "old", status: "pending" }]);
  assert.deepEqual(out.todos[1], {
    content: "Fix bug",
    status: "in_progress",
    priority: "medium",
    id: "2",
  });
  assert.deepEqual(out.todos[3], {
    content: "Run tests",
    status: "pending",
    activeForm: "Running tests",
  });
  assert.deepEqual(out.counts, {
    total: 4,
    pending: 1,
    inProgress: 1,
    completed: 1,
    cancelled: 1,
  });
  assert.deepEqual(ws.ctx.state.get(TODO_STATE_KEY), out.todos);
  assert.deepEqual(JSON.parse(out.json), out.todos);
  assert.ok(out.json.startsWith('[\n  {\n    "content": "Read code",\n    "status": "completed"'));
});

Deno.test("todoWrite() takes Kimi's title and done spellings and keeps them in the checklist", async () => {
  await using ws = await tempWorkspace();
  const input = todoWriteInput.parse({
    todos: [{ title: "Ship it", status: "done" }, { title: "Celebrate", status: "pending" }],
  });
  const out = await todoWrite.run(input, ws.ctx);
  assert.deepEqual(out.todos, [
    { content: "Ship it", status: "completed" },
    { content: "Celebrate", status: "pending" },
  ]);
  assert.equal(out.checklist, "[done] Ship it\n[pending] Celebrate");
  assert.equal(out.counts.completed, 1);
});

Deno.test("todoWrite() without todos returns the current list unchanged", async () => {
  await using ws = await tempWorkspace();
  await todoWrite.run({ todos: [{ content: "a", status: "in_progress" }] }, ws.ctx);
  const out = await todoWrite.run(todoWriteInput.parse({}), ws.ctx);
  assert.deepEqual(out.todos, [{ content: "a", status: "in_progress" }]);
  assert.deepEqual(out.oldTodos, out.todos);
  assert.equal(out.checklist, "[in_progress] a");
});

Deno.test("todoWriteInput rejects an item with neither content nor title, or a bad status", () => {
  const missing = todoWriteInput.safeParse({ todos: [{ status: "pending" }] });
  assert.equal(missing.success, false);
  assert.match(JSON.stringify(missing.error?.issues), /content` or `title/);
  assert.equal(
    todoWriteInput.safeParse({ todos: [{ content: "x", status: "started" }] }).success,
    false,
  );
});

Deno.test("todoRead() returns the list written earlier, or an empty one", async () => {
  await using ws = await tempWorkspace();
  const empty = await todoRead.run({}, ws.ctx);
  assert.deepEqual(empty.todos, []);
  assert.equal(empty.json, "[]");
  assert.equal(empty.checklist, "");
  await todoWrite.run({ todos: [{ content: "x", status: "pending", priority: "low" }] }, ws.ctx);
  const out = await todoRead.run({}, ws.ctx);
  assert.deepEqual(out.todos, [{ content: "x", status: "pending", priority: "low" }]);
  assert.equal(out.counts.pending, 1);
});
