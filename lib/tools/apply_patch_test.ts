import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { applyPatch } from "./apply_patch.ts";
import { tempWorkspace } from "./_test_workspace.ts";

function patch(...lines: string[]): { patch: string } {
  return { patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("applyPatch() updates a file and reports a unified diff", async () => {
  await using ws = await tempWorkspace({ "src/a.txt": "one\ntwo\nthree\n" });
  const out = await applyPatch.run(
    patch("*** Update File: src/a.txt", "@@", " one", "-two", "+2", "+2b", " three"),
    ws.ctx,
  );
  assert.equal(await ws.read("src/a.txt"), "one\n2\n2b\nthree\n");
  assert.deepEqual(out.changes, [{
    path: "src/a.txt",
    kind: "update",
    diff: "--- src/a.txt\n+++ src/a.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n+2b\n three\n",
    added: 2,
    removed: 1,
  }]);
});

Deno.test("applyPatch() adds, deletes and moves files", async () => {
  await using ws = await tempWorkspace({ "old.txt": "bye\n", "m/from.txt": "x\ny\n" });
  const out = await applyPatch.run(
    patch(
      "*** Add File: deep/new.txt",
      "+hello",
      "*** Delete File: old.txt",
      "*** Update File: m/from.txt",
      "*** Move to: m/to.txt",
      "@@",
      "-y",
      "+z",
    ),
    ws.ctx,
  );
  assert.equal(await ws.read("deep/new.txt"), "hello\n");
  assert.equal(await exists(join(ws.dir, "old.txt")), false);
  assert.equal(await exists(join(ws.dir, "m/from.txt")), false);
  assert.equal(await ws.read("m/to.txt"), "x\nz\n");
  assert.deepEqual(
    out.changes.map(({ path, kind, movePath, added, removed }) => ({
      path,
      kind,
      movePath,
      added,
      removed,
    })),
    [
      { path: "deep/new.txt", kind: "add", movePath: undefined, added: 1, removed: 0 },
      { path: "old.txt", kind: "delete", movePath: undefined, added: 0, removed: 1 },
      { path: "m/from.txt", kind: "move", movePath: "m/to.txt", added: 1, removed: 1 },
    ],
  );
  assert.match(out.changes[0].diff, /^--- \/dev\/null\n\+\+\+ deep\/new.txt\n/);
});

Deno.test("applyPatch() writes nothing when any hunk fails", async () => {
  await using ws = await tempWorkspace({ "a.txt": "a\n", "b.txt": "b\n" });
  await assert.rejects(
    () =>
      applyPatch.run(
        patch(
          "*** Update File: a.txt",
          "-a",
          "+A",
          "*** Add File: c.txt",
          "+c",
          "*** Update File: b.txt",
          "-missing",
          "+B",
        ),
        ws.ctx,
      ),
    (err) =>
      err instanceof ToolError && err.message.includes('"b.txt"') &&
      err.message.includes("missing"),
  );
  assert.equal(await ws.read("a.txt"), "a\n");
  assert.equal(await ws.read("b.txt"), "b\n");
  assert.equal(await exists(join(ws.dir, "c.txt")), false);
});

Deno.test("applyPatch() throws ToolError for a missing file", async () => {
  await using ws = await tempWorkspace();
  await assert.rejects(
    () => applyPatch.run(patch("*** Update File: nope.txt", "-a", "+b"), ws.ctx),
    (err) =>
      err instanceof ToolError && /Cannot update "nope.txt": file does not exist/.test(err.message),
  );
  await assert.rejects(
    () => applyPatch.run(patch("*** Delete File: nope.txt"), ws.ctx),
    (err) => err instanceof ToolError && /Cannot delete "nope.txt"/.test(err.message),
  );
});

Deno.test("applyPatch() keeps the file mode and CRLF line endings", async () => {
  await using ws = await tempWorkspace({ "run.sh": "#!/bin/sh\r\necho a\r\n" });
  const file = join(ws.dir, "run.sh");
  await Deno.chmod(file, 0o751);
  await applyPatch.run(patch("*** Update File: run.sh", "-echo a", "+echo b"), ws.ctx);
  assert.equal(await ws.read("run.sh"), "#!/bin/sh\r\necho b\r\n");
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o751);
  await applyPatch.run(
    patch("*** Update File: run.sh", "*** Move to: go.sh", "-echo b", "+echo c"),
    ws.ctx,
  );
  assert.equal((await Deno.stat(join(ws.dir, "go.sh"))).mode! & 0o777, 0o751);
});

Deno.test("applyPatch() applies successive sections on the same file in order", async () => {
  await using ws = await tempWorkspace({ "a.txt": "1\n2\n" });
  await applyPatch.run(
    patch("*** Update File: a.txt", "-1", "+one", "*** Update File: a.txt", "-2", "+two"),
    ws.ctx,
  );
  assert.equal(await ws.read("a.txt"), "one\ntwo\n");
});

Deno.test("applyPatch() accepts absolute paths and a heredoc wrapper", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  const inner = patch(`*** Update File: ${join(ws.dir, "a.txt")}`, "-x", "+y").patch;
  const out = await applyPatch.run({ patch: `apply_patch <<'EOF'\n${inner}\nEOF\n` }, ws.ctx);
  assert.equal(await ws.read("a.txt"), "y\n");
  assert.equal(out.changes[0].path, "a.txt");
});

Deno.test("applyPatch() leaves no temporary files behind", async () => {
  await using ws = await tempWorkspace({ "a.txt": "x\n" });
  await applyPatch.run(patch("*** Update File: a.txt", "-x", "+y"), ws.ctx);
  const names = [];
  for await (const e of Deno.readDir(ws.dir)) names.push(e.name);
  assert.deepEqual(names, ["a.txt"]);
});

Deno.test("applyPatch() throws ToolError when the path is a directory", async () => {
  await using ws = await tempWorkspace({ "d/f.txt": "x\n" });
  await assert.rejects(
    () => applyPatch.run(patch("*** Update File: d", "-x", "+y"), ws.ctx),
    (err) => err instanceof ToolError && /is a directory/.test(err.message),
  );
});
