import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { fsNotebookEdit } from "./notebook_edit.ts";
import { formatLike } from "./_notebook_edit_run.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { need } from "../../sandbox/_test_requires.ts";

/** A notebook as Jupyter writes it: 1-space indent, sorted keys, raw UTF-8, final newline. */
const NOTEBOOK = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a1b2c3d4",
   "metadata": {},
   "source": [
    "# Title\\n",
    "Ünïcode ✓"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "e5f6a7b8",
   "metadata": {
    "tags": [
     "keep"
    ]
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "2\\n"
     ]
    }
   ],
   "source": [
    "x = 1\\n",
    "print(x + 1)"
   ]
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  },
  "language_info": {
   "name": "python",
   "version": "3.11.4"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`;

/** nbformat 4.4: cells have no ids. */
const OLD_NOTEBOOK = JSON.stringify(
  {
    cells: [
      { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ["a = 1"] },
      { cell_type: "markdown", metadata: {}, source: "note" },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 4,
  },
  null,
  2,
);

/**
 * The real python3 executable (a version-manager shim takes seconds per start), if any; without
 * one the notebooks go unchecked by Python, and under CI=true the run fails naming python3.
 */
const PYTHON = !(await need("python3")).ok ? undefined : (() => {
  try {
    const args = ["-c", "import json, sys; print(sys.executable)"];
    const out = new Deno.Command("python3", { args }).outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
})();

/** Asks Python's json module to check the file is a notebook laid out exactly as Jupyter would. */
async function checkWithPython(path: string): Promise<void> {
  if (!PYTHON) return;
  const script = `
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
nb = json.loads(text)
for c in nb["cells"]:
    assert c["cell_type"] in ("code", "markdown", "raw"), c
    assert isinstance(c["metadata"], dict) and isinstance(c["source"], (list, str)), c
    if c["cell_type"] == "code":
        assert isinstance(c["outputs"], list) and "execution_count" in c, c
    else:
        assert "outputs" not in c and "execution_count" not in c, c
assert text == json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\\n", "layout"
`;
  const out = await new Deno.Command(PYTHON, { args: ["-c", script, path] }).output();
  assert.equal(new TextDecoder().decode(out.stderr), "");
  assert.ok(out.success);
}

async function notebookWorkspace(files: Record<string, string> = { "nb.ipynb": NOTEBOOK }) {
  return await tempWorkspace(files);
}

Deno.test("fsNotebookEdit() replaces a code cell, clearing outputs and keeping metadata", async () => {
  await using ws = await notebookWorkspace();
  const out = await fsNotebookEdit.run(
    { path: "nb.ipynb", cell_id: "e5f6a7b8", new_source: "y = 2\nprint(y)\n" },
    ws.ctx,
  );
  assert.deepEqual(out, {
    path: "nb.ipynb",
    cellId: "e5f6a7b8",
    cellIndex: 1,
    editMode: "replace",
    cellType: "code",
    newSource: "y = 2\nprint(y)\n",
    cellCount: 2,
  });
  const text = await ws.read("nb.ipynb");
  const nb = JSON.parse(text);
  assert.deepEqual(nb.cells[1], {
    cell_type: "code",
    execution_count: null,
    id: "e5f6a7b8",
    metadata: { tags: ["keep"] },
    outputs: [],
    source: ["y = 2\n", "print(y)\n"],
  });
  assert.ok(text.startsWith(NOTEBOOK.slice(0, NOTEBOOK.indexOf('  {\n   "cell_type": "code"'))));
  assert.ok(text.endsWith(NOTEBOOK.slice(NOTEBOOK.indexOf(' ],\n "metadata"'))));
  await checkWithPython(join(ws.dir, "nb.ipynb"));
});

Deno.test("fsNotebookEdit() inserts after the given cell with a fresh id", async () => {
  await using ws = await notebookWorkspace();
  const out = await fsNotebookEdit.run(
    {
      path: "nb.ipynb",
      cell_id: "a1b2c3d4",
      new_source: "## Part two",
      cell_type: "markdown",
      edit_mode: "insert",
    },
    ws.ctx,
  );
  assert.equal(out.cellIndex, 1);
  assert.equal(out.cellCount, 3);
  assert.match(out.cellId, /^[0-9a-f]{8}$/);
  const nb = JSON.parse(await ws.read("nb.ipynb"));
  assert.deepEqual(nb.cells[1], {
    cell_type: "markdown",
    id: out.cellId,
    metadata: {},
    source: ["## Part two"],
  });
  assert.deepEqual(nb.cells.map((c: { id: string }) => c.id), ["a1b2c3d4", out.cellId, "e5f6a7b8"]);
  await checkWithPython(join(ws.dir, "nb.ipynb"));
});

Deno.test("fsNotebookEdit() inserts a code cell at the start when no cell is given", async () => {
  await using ws = await notebookWorkspace();
  const out = await fsNotebookEdit.run(
    { path: "nb.ipynb", new_source: "import os", edit_mode: "insert" },
    ws.ctx,
  );
  assert.equal(out.cellIndex, 0);
  assert.equal(out.cellType, "code");
  const nb = JSON.parse(await ws.read("nb.ipynb"));
  assert.deepEqual(nb.cells[0].outputs, []);
  assert.equal(nb.cells[0].execution_count, null);
  await checkWithPython(join(ws.dir, "nb.ipynb"));
});

Deno.test("fsNotebookEdit() deletes a cell and changes a cell's type", async () => {
  await using ws = await notebookWorkspace();
  const del = await fsNotebookEdit.run(
    { path: "nb.ipynb", cell_id: "a1b2c3d4", edit_mode: "delete" },
    ws.ctx,
  );
  assert.deepEqual(
    { id: del.cellId, n: del.cellCount, type: del.cellType, src: del.newSource },
    { id: "a1b2c3d4", n: 1, type: "markdown", src: "" },
  );
  await fsNotebookEdit.run(
    { path: "nb.ipynb", cell_number: 0, new_source: "*now prose*", cell_type: "markdown" },
    ws.ctx,
  );
  const nb = JSON.parse(await ws.read("nb.ipynb"));
  assert.deepEqual(nb.cells, [
    {
      cell_type: "markdown",
      id: "e5f6a7b8",
      metadata: { tags: ["keep"] },
      source: ["*now prose*"],
    },
  ]);
  await checkWithPython(join(ws.dir, "nb.ipynb"));
});

Deno.test("fsNotebookEdit() addresses cells as cell-N and adds no ids before nbformat 4.5", async () => {
  await using ws = await notebookWorkspace({ "old.ipynb": OLD_NOTEBOOK });
  const out = await fsNotebookEdit.run(
    { path: "old.ipynb", cell_id: "cell-1", new_source: "new note" },
    ws.ctx,
  );
  assert.equal(out.cellId, "cell-1");
  const appended = await fsNotebookEdit.run(
    { path: "old.ipynb", cell_number: 2, new_source: "b = 2\n" },
    ws.ctx,
  );
  assert.deepEqual([appended.editMode, appended.cellId, appended.cellCount], [
    "insert",
    "cell-2",
    3,
  ]);
  const text = await ws.read("old.ipynb");
  const nb = JSON.parse(text);
  assert.equal(nb.cells[1].source, "new note");
  assert.deepEqual(nb.cells[2], {
    cell_type: "code",
    execution_count: null,
    metadata: {},
    outputs: [],
    source: ["b = 2\n"],
  });
  assert.ok(text.startsWith('{\n  "cells": [\n    {\n      "cell_type"'));
  assert.ok(!text.endsWith("\n"));
});

Deno.test("fsNotebookEdit() throws ToolError for bad paths, cells and sources", async () => {
  await using ws = await notebookWorkspace({
    "nb.ipynb": NOTEBOOK,
    "a.txt": "x",
    "bad.ipynb": "{",
  });
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ path: "a.txt", cell_number: 0, new_source: "" }, /not a Jupyter notebook/],
    [{ path: "none.ipynb", cell_number: 0, new_source: "" }, /notebook does not exist/],
    [{ path: "bad.ipynb", cell_number: 0, new_source: "" }, /not valid JSON/],
    [{ path: "nb.ipynb", cell_id: "zzz", new_source: "" }, /cell "zzz" not found/],
    [{ path: "nb.ipynb", cell_id: "a1b2c3d4" }, /missing new_source/],
    [{ path: "nb.ipynb", new_source: "x" }, /no cell given/],
    [{ path: "nb.ipynb", cell_number: 3, new_source: "x" }, /notebook has 2 cells/],
    [{ path: "nb.ipynb", cell_number: 2, edit_mode: "delete" }, /notebook has 2 cells/],
  ];
  for (const [input, message] of cases) {
    await assert.rejects(
      () => fsNotebookEdit.run(fsNotebookEdit.input.parse(input), ws.ctx),
      (err) => err instanceof ToolError && message.test(err.message),
      JSON.stringify(input),
    );
  }
  await assert.rejects(
    () => fsNotebookEdit.run({ path: "nb.ipynb", cell_id: "zzz", new_source: "" }, ws.ctx),
    (err) => err instanceof ToolError && err.hint === "Cell ids: a1b2c3d4, e5f6a7b8",
  );
  assert.equal(await ws.read("nb.ipynb"), NOTEBOOK);
});

Deno.test("formatLike() keeps tabs, CRLF and a byte order mark", () => {
  const nb = { a: [1] };
  assert.equal(formatLike('{\r\n\t"a": []\r\n}\r\n', nb), '{\r\n\t"a": [\r\n\t\t1\r\n\t]\r\n}\r\n');
  assert.equal(formatLike('\uFEFF{\n "a": []\n}', nb), '\uFEFF{\n "a": [\n  1\n ]\n}');
  assert.equal(formatLike('{"a":[]}', nb), '{"a":[1]}');
});
