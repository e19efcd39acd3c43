import assert from "node:assert/strict";
import { EDIT_HISTORY_KEY, type EditHistory } from "./_edit_history.ts";
import { READ_RECORDS_KEY } from "./_read_records.ts";
import {
  LOADED_TOOLS_KEY,
  type RestoreOptions,
  restoreState,
  snapshotState,
  TOOL_STATE_VERSION,
  UNDO_SNAPSHOT_CHARS,
} from "./session_state.ts";
import { JobRegistry, JOBS_STATE_KEY } from "./shell_jobs.ts";
import { testScratch } from "./_test_workspace.ts";
import { TODO_STATE_KEY } from "./todo_write.ts";

const WORKSPACE = { cwd: "/w", realCwd: "/w", recordedCwd: "/w" };
const HASH = "ab".repeat(32);

function restoreNoting(
  snapshot: unknown,
  opts: RestoreOptions = { workspace: WORKSPACE },
): { state: Map<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  const state = restoreState(snapshot, { ...opts, note: (m) => notes.push(m) });
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
    [EDIT_HISTORY_KEY, { "/w/a.txt": [{ before: null, real: "/w/a.txt", wroteSha256: HASH }] }],
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

Deno.test("restoreState() drops saved undo entries that lead outside the workspace", () => {
  const edit = (real: string) => [{ before: "old", real, wroteSha256: HASH }];
  const { state, notes } = restoreNoting(
    {
      version: 1,
      values: {
        [EDIT_HISTORY_KEY]: {
          "/w/ok.txt": edit("/w/ok.txt"),
          "/w/../etc/passwd": edit("/etc/passwd"),
          "/etc/passwd": edit("/etc/passwd"),
          "w/relative.txt": edit("/w/relative.txt"),
          "/w/link.txt": edit("/home/user/.bashrc"),
          "/w/bad.txt": [{ before: 1, real: "/w/bad.txt" }],
          "/w/bad_hash.txt": [{ before: "", real: "/w/bad_hash.txt", wroteSha256: "x" }],
        },
      },
    },
    { workspace: WORKSPACE, from: 'session "s.jsonl", line 7' },
  );
  assert.deepEqual(state.get(EDIT_HISTORY_KEY), { "/w/ok.txt": edit("/w/ok.txt") });
  const outside = 'the path is not inside the workspace "/w" (session "s.jsonl", line 7)';
  assert.deepEqual(notes, [
    `Dropped the saved undo entries for "/w/../etc/passwd": ${outside}`,
    `Dropped the saved undo entries for "/etc/passwd": ${outside}`,
    `Dropped the saved undo entries for "w/relative.txt": ${outside}`,
    'Dropped the saved undo entries for "/w/link.txt": an edit\'s real path is not inside the ' +
    'workspace (a symlink leading out of it?) (session "s.jsonl", line 7)',
    'Dropped the saved undo entries for "/w/bad.txt": it is not a list of edits ' +
    '(Invalid input: expected string, received number) (session "s.jsonl", line 7)',
    'Dropped the saved undo entries for "/w/bad_hash.txt": it is not a list of edits ' +
    '(expected 64 lower-case hex digits) (session "s.jsonl", line 7)',
  ]);
});

Deno.test("restoreState() keeps no undo history of another workspace, or without one", () => {
  const values = { [EDIT_HISTORY_KEY]: { "/w/a.txt": [{ before: null, real: "/w/a.txt" }] } };
  const elsewhere = restoreNoting({ version: 1, values }, {
    workspace: { ...WORKSPACE, recordedCwd: "/other" },
  });
  assert.deepEqual(elsewhere.state.get(EDIT_HISTORY_KEY), {});
  assert.match(elsewhere.notes[0], /session was started in "\/other", not in this workspace "\/w"/);
  const unchecked = restoreNoting({ version: 1, values }, {});
  assert.deepEqual(unchecked.state.get(EDIT_HISTORY_KEY), {});
  assert.match(unchecked.notes[0], /no workspace to check its paths against/);
  const here = restoreNoting({ version: 1, values });
  assert.deepEqual(here.state.get(EDIT_HISTORY_KEY), values[EDIT_HISTORY_KEY], "kept, unhashed");
});
