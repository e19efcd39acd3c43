import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { LinkedPathError } from "../trajectory/write.ts";
import { type OutputPlace, outputPlaceOf, writeOutputFile } from "./output_file.ts";
import { need } from "../../sandbox/_test_requires.ts";

const BWRAP = await need("bwrap");

function bwrapTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `${name}${BWRAP.note}`, ignore: BWRAP.ignore, fn });
}

/** `<root>/ws` (cwd and writable root) and `<root>/outside/victim.txt`. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "output_file_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(ws);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "victim.txt"), "keep\n");
  return {
    ws,
    outside,
    victim: join(outside, "victim.txt"),
    place: (mode: OutputPlace["mode"] = "workspace-write"): OutputPlace => ({
      cwd: ws,
      mode,
      writableRoots: mode === "workspace-write" ? [ws] : [],
    }),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

/** Every file under `dir` whose name is a temp file's. */
async function tempFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...await tempFiles(path));
    else if (entry.name.endsWith(".tmp")) found.push(path);
  }
  return found;
}

Deno.test("outputPlaceOf: the cwd and writable_roots under workspace-write, no root otherwise", () => {
  const values = {
    sandbox_mode: "workspace-write" as const,
    sandbox_workspace_write: { writable_roots: ["../cache"] },
  };
  const env = { OPENINTERPRETER_BWRAP: "/opt/bwrap" };
  assert.deepEqual(outputPlaceOf(values, "/w/repo", env), {
    cwd: "/w/repo",
    mode: "workspace-write",
    writableRoots: ["/w/repo", "/w/cache"],
    bwrap: "/opt/bwrap",
  });
  const readOnly = outputPlaceOf({ ...values, sandbox_mode: "read-only" }, "/w/repo", {});
  assert.deepEqual(readOnly.writableRoots, []);
});

for (const mode of ["workspace-write", "read-only", "danger-full-access"] as const) {
  // Only workspace-write has a writable root, written through the sandboxed helper.
  const test = mode === "workspace-write" ? bwrapTest : Deno.test;
  test(`${mode}: a link at the output file or on its way is refused; a plain path is written`, async () => {
    await using at = await layout();
    await Deno.symlink(at.victim, join(at.ws, "answer.md"));
    await Deno.symlink(at.outside, join(at.ws, "dir"));
    await assert.rejects(writeOutputFile(join(at.ws, "answer.md"), "x", at.place(mode)), (e) => {
      assert.ok(e instanceof LinkedPathError, String(e));
      assert.equal(e.path, join(at.ws, "answer.md"));
      assert.match(e.message, /^it is a symbolic link to "[^"]*outside\/victim\.txt"/);
      return true;
    });
    await assert.rejects(
      writeOutputFile(join(at.ws, "dir", "t.json"), "x", at.place(mode)),
      (e) => {
        assert.ok(e instanceof LinkedPathError, String(e));
        assert.match(
          e.message,
          /the folder "[^"]*ws\/dir" on the way is a symbolic link to "[^"]*outside"/,
        );
        return true;
      },
    );
    assert.equal(await Deno.readTextFile(at.victim), "keep\n");
    assert.deepEqual([...Deno.readDirSync(at.outside)].map((e) => e.name), ["victim.txt"]);
    // Control: a plain path, in a folder that is made, gets the text; nothing temporary is left.
    await writeOutputFile(join(at.ws, "out", "answer.md"), "the answer", at.place(mode));
    assert.equal(await Deno.readTextFile(join(at.ws, "out", "answer.md")), "the answer");
    assert.deepEqual(await tempFiles(at.ws), []);
  });
}

/** Swaps `<ws>/d` for a link to `outside` (what a sandboxed background job can do at any time). */
async function swapForLink(ws: string, outside: string): Promise<void> {
  await Deno.rename(join(ws, "d"), join(ws, "d.aside"));
  await Deno.symlink(outside, join(ws, "d"));
}

bwrapTest(
  "a folder swapped for a link between the checks and the write cannot redirect it",
  async () => {
    await using at = await layout();
    await Deno.mkdir(join(at.ws, "d"));
    const file = join(at.ws, "d", "out.txt");
    const beforeWrite = () => swapForLink(at.ws, at.outside);
    await assert.rejects(writeOutputFile(file, "answer\n", { ...at.place(), beforeWrite }), (e) => {
      assert.ok(e instanceof UserError, String(e));
      assert.match(e.message, /a folder on the way was replaced by a link leading outside/);
      return true;
    });
    assert.deepEqual([...Deno.readDirSync(at.outside)].map((e) => e.name), ["victim.txt"]);
    assert.deepEqual(await tempFiles(at.ws), []);
    // Control: the same swap redirects a write that no sandbox confines (danger-full-access),
    // which is why a writable root is written through the sandboxed helper.
    await Deno.remove(join(at.ws, "d"));
    await Deno.rename(join(at.ws, "d.aside"), join(at.ws, "d"));
    await writeOutputFile(file, "answer\n", { ...at.place("danger-full-access"), beforeWrite });
    assert.equal(await Deno.readTextFile(join(at.outside, "out.txt")), "answer\n");
  },
);
