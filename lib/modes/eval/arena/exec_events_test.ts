import assert from "node:assert/strict";
import type { ThreadEvent } from "../../exec/exec_json_types.ts";
import { ExecEventCounter } from "./exec_events.ts";

const command = (id: string, status: "in_progress" | "completed" | "failed") => ({
  id,
  type: "command_execution" as const,
  command: "/bin/bash -lc 'pytest -q'",
  aggregated_output: status === "in_progress" ? "" : "1 passed",
  status,
});

/** A run of five model requests and four tool calls, as `exec --json` writes it. */
const RUN: ThreadEvent[] = [
  { type: "thread.started", thread_id: "01a2298e-138e-77b0-b909-5c4d6596d49e" },
  { type: "turn.started" },
  // Request 1: reasoning, then a command.
  { type: "item.completed", item: { id: "item_0", type: "reasoning", text: "Look first" } },
  { type: "item.started", item: command("item_1", "in_progress") },
  { type: "item.completed", item: command("item_1", "failed") },
  { type: "error", message: "Reconnecting... 1/5 (overloaded)" },
  // Request 2: commentary, then an edit (written as completed only).
  { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "Fixing" } },
  {
    type: "item.completed",
    item: {
      id: "item_3",
      type: "file_change",
      changes: [{ path: "/w/a.py", kind: "update" }],
      status: "completed",
    },
  },
  // Request 3: a plan.
  {
    type: "item.started",
    item: { id: "item_4", type: "todo_list", items: [{ text: "Fix", completed: false }] },
  },
  // Request 4: the plan updated.
  {
    type: "item.updated",
    item: { id: "item_4", type: "todo_list", items: [{ text: "Fix", completed: true }] },
  },
  // Request 5: the answer; the list completes with the turn.
  { type: "item.completed", item: { id: "item_5", type: "agent_message", text: "Done." } },
  {
    type: "item.completed",
    item: { id: "item_4", type: "todo_list", items: [{ text: "Fix", completed: true }] },
  },
  {
    type: "turn.completed",
    usage: {
      input_tokens: 400,
      cached_input_tokens: 40,
      cache_write_input_tokens: 0,
      output_tokens: 80,
      reasoning_output_tokens: 0,
    },
  },
];

const STREAM = RUN.map((e) => `${JSON.stringify(e)}\n`).join("");

Deno.test("ExecEventCounter counts the tool calls and model requests of a run", () => {
  const counter = new ExecEventCounter();
  counter.push(STREAM);
  assert.equal(counter.toolCalls, 4);
  assert.equal(counter.requests, 5);
});

Deno.test("ExecEventCounter reads lines split across chunks as whole lines", () => {
  for (const size of [1, 7, 64]) {
    const counter = new ExecEventCounter();
    for (let at = 0; at < STREAM.length; at += size) counter.push(STREAM.slice(at, at + size));
    assert.deepEqual([counter.toolCalls, counter.requests], [4, 5], `chunks of ${size}`);
  }
});

Deno.test("ExecEventCounter waits for a line's end before counting it", () => {
  const counter = new ExecEventCounter();
  counter.push('{"type":"turn.started"}');
  assert.equal(counter.requests, 0);
  counter.push("\n");
  assert.equal(counter.requests, 1);
});

Deno.test("ExecEventCounter skips garbage lines and keeps counting after them", () => {
  const counter = new ExecEventCounter();
  counter.push(
    [
      "Traceback (most recent call last):",
      "{not json",
      "[1, 2]",
      "null",
      '{"type": 5}',
      '{"type":"item.started"}',
      '{"type":"item.completed","item":null}',
      '{"type":"item.completed","item":{"type":"command_execution"}}',
      '{"type":"turn.started"}',
      JSON.stringify({ type: "item.started", item: command("item_9", "in_progress") }),
      "",
    ].join("\n"),
  );
  assert.equal(counter.toolCalls, 1);
  assert.equal(counter.requests, 1);
});

Deno.test("ExecEventCounter counts a reply whose calls wrote no item by its text", () => {
  const counter = new ExecEventCounter();
  counter.push(
    [
      { type: "turn.started" },
      // A reply whose one call named an unknown tool: only its text shows.
      { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "Run it" } },
      { type: "item.completed", item: { id: "item_1", type: "reasoning", text: "Try again" } },
      { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "Now" } },
      { type: "item.started", item: command("item_3", "in_progress") },
      { type: "item.completed", item: command("item_3", "completed") },
      // The same again without reasoning.
      { type: "item.completed", item: { id: "item_4", type: "agent_message", text: "Edit" } },
      { type: "item.completed", item: { id: "item_5", type: "agent_message", text: "Done." } },
    ].map((e) => `${JSON.stringify(e)}\n`).join(""),
  );
  assert.equal(counter.toolCalls, 1);
  assert.equal(counter.requests, 4);
});

Deno.test("ExecEventCounter counts a command once from its start to its end", () => {
  const counter = new ExecEventCounter();
  counter.push(
    [
      { type: "turn.started" },
      { type: "item.started", item: command("item_0", "in_progress") },
      { type: "item.updated", item: command("item_0", "in_progress") },
      { type: "item.completed", item: command("item_0", "completed") },
      { type: "turn.completed", usage: {} },
    ].map((e) => `${JSON.stringify(e)}\n`).join(""),
  );
  assert.equal(counter.toolCalls, 1);
  // The reply after the result (no text, no calls) was a request too.
  assert.equal(counter.requests, 2);
});
