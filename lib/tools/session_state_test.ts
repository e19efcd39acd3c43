import assert from "node:assert/strict";
import { EDIT_HISTORY_KEY, type EditHistory } from "./_edit_history.ts";
import { READ_RECORDS_KEY } from "./_read_records.ts";
import {
  LOADED_TOOLS_KEY,
  restoreState,
  snapshotState,
  TOOL_STATE_VERSION,
  UNDO_SNAPSHOT_CHARS,
} from "./session_state.ts";
import { JobRegistry, JOBS_STATE_KEY } from "./shell_jobs.ts";
import { testScratch } from "./_test_workspace.ts";
import { TODO_STATE_KEY } from "./todo_write.ts";

function restoreNoting(snapshot: unknown): { state: Map<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  const state = restoreState(snapshot, { note: (m) => notes.push(m) });
  return { state, notes };
}

Deno.test("snapshotState() saves declared keys as JSON and leaves out everything else", async () => {
  await using scratch = await testScratch();
  await using jobs = new JobRegistry({ scratch });
  const todos = [{ content: "fix it", status: "pending" }];
  const state = new Map<string, unknown>([
    [TODO_STATE_KEY, todos],
    [READ_RECORDS_KEY, { "/w/a.txt": { mtimeMs: 5, size: 2, whole: true } }],
    [JOBS_STATE_KEY, jobs],
    ["swe_agent.submit", "asked"],
  ]);
  const snapshot = snapshotState(state);
  assert.deepEqual(snapshot, {
    version: TOOL_STATE_VERSION,
    values: {
      [TODO_STATE_KEY]: todos,
      [READ_RECORDS_KEY]: { "/w/a.txt": { mtimeMs: 5, size: 2, whole: true } },
    },
  });
  todos.push({ content: "later", status: "pending" });
  assert.equal((snapshot.values[TODO_STATE_KEY] as unknown[]).length, 1, "a copy, not a view");
});

Deno.test("snapshotState() throws when a declared key holds a Map or the wrong shape", () => {
  const state = new Map<string, unknown>([[READ_RECORDS_KEY, new Map([["/a", {}]])]]);
  assert.throws(() => snapshotState(state), /"fs\.read\.records" is not plain JSON/);
  assert.throws(
    () => snapshotState(new Map([[TODO_STATE_KEY, [{ content: "x", status: "done" }]]])),
    /Tool state "todos" does not fit its schema: 0\.status/,
  );
});

Deno.test("restoreState() brings back a JSON round trip of a snapshot unchanged", () => {
  const state = new Map<string, unknown>([
    [TODO_STATE_KEY, [{ content: "fix it", status: "in_progress", activeForm: "Fixing it" }]],
    [LOADED_TOOLS_KEY, ["WebFetch"]],
    [READ_RECORDS_KEY, { "/w/a.txt": { mtimeMs: null, size: 0, whole: false } }],
    [EDIT_HISTORY_KEY, { "/w/a.txt": [{ before: null, real: "/w/a.txt" }] }],
  ]);
  const { state: back, notes } = restoreNoting(JSON.parse(JSON.stringify(snapshotState(state))));
  assert.deepEqual(back, state);
  assert.deepEqual(notes, []);
});

Deno.test("restoreState() drops unknown keys and bad values, each with a note", () => {
  const { state, notes } = restoreNoting({
    version: 1,
    values: {
      [LOADED_TOOLS_KEY]: ["WebFetch"],
      "telepathy.links": [1, 2],
      [TODO_STATE_KEY]: [{ content: "x" }],
    },
  });
  assert.deepEqual([...state.keys()], [LOADED_TOOLS_KEY]);
  assert.deepEqual(notes, [
    'Dropped the saved tool state "telepathy.links": this interpreter does not use it',
    'Dropped the saved tool state "todos": 0.status: Invalid option: expected one of ' +
    '"pending"|"in_progress"|"completed"|"cancelled"',
  ]);
});

Deno.test("restoreState() starts empty, with a note, from a newer version or a non-snapshot", () => {
  const newer = restoreNoting({ version: TOOL_STATE_VERSION + 1, values: { todos: [] } });
  assert.equal(newer.state.size, 0);
  assert.match(newer.notes[0], /it has version 2, and this interpreter reads up to 1/);
  for (const bad of [undefined, "todos", { values: {} }, { version: 1, values: [] }]) {
    const { state, notes } = restoreNoting(bad);
    assert.equal(state.size, 0);
    assert.equal(notes.length, 1);
    assert.match(notes[0], /^Cannot restore the saved tool state: /);
  }
});

Deno.test("snapshotState() keeps the latest undo edits within UNDO_SNAPSHOT_CHARS", () => {
  const half = "x".repeat(UNDO_SNAPSHOT_CHARS / 2);
  const history: EditHistory = {
    "/w/too_big.txt": [{ before: half, real: "/w/too_big.txt" }],
    "/w/small.txt": [{ before: "old", real: "/w/small.txt" }],
    "/w/a.txt": [
      { before: half, real: "/w/a.txt" },
      { before: half, real: "/w/a.txt" },
      { before: "recent", real: "/w/a.txt" },
    ],
  };
  const saved = snapshotState(new Map([[EDIT_HISTORY_KEY, history]])).values[EDIT_HISTORY_KEY];
  assert.deepEqual(saved, {
    "/w/small.txt": [{ before: "old", real: "/w/small.txt" }],
    "/w/a.txt": [{ before: half, real: "/w/a.txt" }, { before: "recent", real: "/w/a.txt" }],
  });
  assert.equal(history["/w/a.txt"].length, 3, "the live history is not cut");
});
