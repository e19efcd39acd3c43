import assert from "node:assert/strict";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { trajectoryOf } from "./atif.ts";
import { LinkedPathError, writeTextWhole, writeTrajectory, writeWholeNoFollow } from "./write.ts";

const TRAJECTORY = trajectoryOf([], {
  sessionId: "s",
  agent: { name: "interpreter", version: "0" },
});

Deno.test("writeTrajectory writes the whole file into a new folder and leaves no temp file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "agent", "trajectory.json");
    await writeTrajectory(file, TRAJECTORY);
    await writeTrajectory(file, TRAJECTORY);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), TRAJECTORY);
    const names = [...Deno.readDirSync(join(dir, "agent"))].map((e) => e.name);
    assert.deepEqual(names, ["trajectory.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeTrajectory to an impossible path fails naming the file and the fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const blocker = join(dir, "file");
    await Deno.writeTextFile(blocker, "");
    await assert.rejects(writeTrajectory(join(blocker, "t.json"), TRAJECTORY), (error) => {
      assert.ok(error instanceof UserError);
      assert.match(error.message, /Cannot write the trajectory to ".*file\/t\.json"/);
      assert.match(error.hint ?? "", /--trajectory/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** `<root>/ws` (the guarded folder), `<root>/outside/victim.txt`, `<root>/wslink -> ws`. */
async function linkLayout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "write_links_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(ws);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "victim.txt"), "keep\n");
  await Deno.symlink(ws, join(root, "wslink"));
  return {
    root,
    ws,
    outside,
    victim: join(outside, "victim.txt"),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("a link at the output file is refused, named with where it points; the target is unchanged", async () => {
  await using at = await linkLayout();
  const link = join(at.ws, "answer.md");
  await Deno.symlink(at.victim, link);
  await assert.rejects(writeTextWhole(link, "text\n"), (error) => {
    assert.ok(error instanceof LinkedPathError);
    assert.equal(
      error.message,
      `it is a symbolic link to "${at.victim}"; output files are never written through links`,
    );
    assert.equal(error.path, link);
    assert.match(error.hint ?? "", /Pass another path, or remove the link/);
    return true;
  });
  assert.equal(await Deno.readTextFile(at.victim), "keep\n");
  assert.ok((await Deno.lstat(link)).isSymlink, "the link stays");
  // Control: a plain path beside it is written.
  await writeTextWhole(join(at.ws, "plain.md"), "text\n");
  assert.equal(await Deno.readTextFile(join(at.ws, "plain.md")), "text\n");
});

Deno.test("below a guarded folder a linked folder on the way is refused; above it links are followed", async () => {
  await using at = await linkLayout();
  await Deno.symlink(at.outside, join(at.ws, "dir"));
  const data = new TextEncoder().encode("x\n");
  await assert.rejects(
    writeWholeNoFollow(join(at.ws, "dir", "t.json"), data, { linkFree: [at.ws] }),
    (error) => {
      assert.ok(error instanceof LinkedPathError);
      assert.match(
        error.message,
        /the folder "[^"]*\/ws\/dir" on the way is a symbolic link to "[^"]*\/outside"/,
      );
      return true;
    },
  );
  assert.deepEqual([...Deno.readDirSync(at.outside)].map((e) => e.name), ["victim.txt"]);
  // Control: the guarded folder reached through the user's own link, and a new folder under it.
  await writeWholeNoFollow(join(at.root, "wslink", "new", "t.json"), data, { linkFree: [at.ws] });
  assert.equal(await Deno.readTextFile(join(at.ws, "new", "t.json")), "x\n");
  // Outside every guarded folder, the folder link is the user's and is followed.
  await writeWholeNoFollow(join(at.ws, "dir", "t.json"), data, { linkFree: [at.outside] });
  assert.equal(await Deno.readTextFile(join(at.outside, "t.json")), "x\n");
});

Deno.test("a write that fails after its temp file was made removes the temp file", async () => {
  await using at = await linkLayout();
  await Deno.writeTextFile(join(at.ws, "t.json"), "old\n");
  const bytes = new Uint8Array(8);
  bytes.subarray = () => {
    throw new Error("disk full");
  };
  await assert.rejects(writeWholeNoFollow(join(at.ws, "t.json"), bytes), /disk full/);
  assert.deepEqual([...Deno.readDirSync(at.ws)].map((e) => e.name), ["t.json"]);
  assert.equal(await Deno.readTextFile(join(at.ws, "t.json")), "old\n");
});
