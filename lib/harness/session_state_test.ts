import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "../tools/capability.ts";
import { fsEdit } from "../tools/fs_edit.ts";
import { fsRead } from "../tools/fs_read.ts";
import { Resources } from "../tools/resources.ts";
import { restoreState, snapshotState } from "../tools/session_state.ts";
import { strReplaceEditor } from "../tools/str_replace_editor.ts";
import { todoRead, todoWrite } from "../tools/todo_write.ts";
import { type TempWorkspace, tempWorkspace } from "../tools/_test_workspace.ts";
import { renderResult, resolveCall } from "./call.ts";
import { advertisedTools, toolCatalog } from "./deferred.ts";
import { loadHarnessDir } from "./load.ts";
import type { Harness } from "./types.ts";
import { DEFERRED_FILES, DEFERRED_SPEC } from "./_test_deferred.ts";
import { writeHarness } from "./_test_harness.ts";

const allowAll = () => Promise.resolve({ allow: true as const });

/** A context on `state` in `base`'s workspace, as a session builds one for a turn. */
function contextOn(base: ToolContext, h: Harness, state: Map<string, unknown>): ToolContext {
  return {
    ...base,
    state,
    resources: new Resources(),
    toolCatalog: toolCatalog(h, state, { guard: allowAll }),
  };
}

/** Runs harness tool `name` the way the loop does: wire arguments in, rendered text out. */
async function call(h: Harness, ctx: ToolContext, name: string, args: unknown): Promise<string> {
  const resolved = resolveCall(h, { name, args });
  return renderResult(resolved.tool, await resolved.capability.run(resolved.input, ctx));
}

function refusal(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "allowed",
    (error) => {
      if (!(error instanceof ToolError)) throw error;
      return error.message;
    },
  );
}

Deno.test("restoreState() of a saved snapshot lets follow-up tool calls behave as before it", async () => {
  await using ws = await tempWorkspace({
    "a.txt": "x = 1\n",
    "b.txt": "y = 1\n",
    "c.txt": "z = 1\n",
    "d.txt": "w = 1\n",
  });
  const root = await Deno.makeTempDir({ prefix: "oi_harness_" });
  try {
    await roundTrip(
      ws,
      await loadHarnessDir(await writeHarness(root, "d", DEFERRED_SPEC, DEFERRED_FILES)),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function roundTrip(ws: TempWorkspace, h: Harness): Promise<void> {
  const before = contextOn(ws.ctx, h, new Map());
  const todos = [{ content: "fix a", status: "in_progress" as const }];
  await todoWrite.run({ todos }, before);
  assert.match(await call(h, before, "ToolSearch", { query: "select:Plan" }), /Loaded: Plan/);
  await fsRead.run({ path: "a.txt" }, before);
  await fsEdit.run(
    { path: "a.txt", old_string: "x = 1", new_string: "x = 2", require_read: true },
    before,
  );
  await fsRead.run({ path: "b.txt" }, before);
  await fsRead.run({ path: "c.txt" }, before);
  await strReplaceEditor.run(
    { command: "str_replace", path: "d.txt", old_str: "w = 1", new_str: "w = 2" },
    before,
  );

  const saved: unknown = JSON.parse(JSON.stringify(snapshotState(before.state)));
  await Deno.writeTextFile(join(ws.dir, "c.txt"), "z = 100\n");
  const notes: string[] = [];
  const workspace = { cwd: ws.dir, realCwd: ws.dir, recordedCwd: ws.dir };
  const after = contextOn(
    ws.ctx,
    h,
    restoreState(saved, { note: (m) => notes.push(m), workspace }),
  );
  assert.deepEqual(notes, []);

  assert.deepEqual((await todoRead.run({}, after)).todos, todos);
  assert.ok(advertisedTools(h, after.state).some((d) => d.name === "Plan"));
  const edit = (path: string, from: string, to: string, ctx = after) =>
    refusal(fsEdit.run({ path, old_string: from, new_string: to, require_read: true }, ctx));
  assert.equal(await edit("a.txt", "x = 2", "x = 3"), "allowed", "its own edit counts as read");
  assert.equal(await edit("b.txt", "y = 1", "y = 2"), "allowed", "unchanged since the read");
  assert.match(await edit("c.txt", "z = 100", "z = 2"), /File has changed since it was last read/);
  const undo = await strReplaceEditor.run({ command: "undo_edit", path: "d.txt" }, after);
  assert.match(undo.output, /undone successfully/);
  assert.equal(await ws.read("d.txt"), "w = 1\n");

  const fresh = contextOn(ws.ctx, h, new Map());
  assert.match(
    await edit("b.txt", "y = 2", "y = 3", fresh),
    /has not been read yet/,
    "without the restored state the same edit is refused",
  );
  assert.equal((await todoRead.run({}, fresh)).todos.length, 0);
  assert.ok(!advertisedTools(h, fresh.state).some((d) => d.name === "Plan"));
}
