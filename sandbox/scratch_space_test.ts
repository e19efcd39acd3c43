import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { cleanStaleSessions, SessionScratch } from "./scratch_space.ts";

async function tempRoot(): Promise<AsyncDisposable & { dir: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_scratch_test_" }));
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

const names = async (dir: string) => (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);

Deno.test("SessionScratch creates nothing until used and removes all it made on dispose", async () => {
  await using root = await tempRoot();
  const run = join(root.dir, "run");
  const scratch = new SessionScratch(run);
  await assert.rejects(Deno.stat(run), Deno.errors.NotFound);
  const shared = await scratch.makeDir("jobs-", { visibleToCommands: true });
  const hidden = await scratch.makeDir("tmux-");
  assert.equal(dirname(dirname(shared)), run, "commands see it: in the session folder");
  assert.ok(!hidden.startsWith(run), "commands do not see it: in the host's temp folder");
  const out = await scratch.create(join(shared, "a.output"));
  await out.write(new TextEncoder().encode("hello"));
  assert.equal(await Deno.readTextFile(join(shared, "a.output")), "hello", "written at once");
  out.close();
  await scratch.writeFile(join(hidden, "conf"), new TextEncoder().encode("c"));
  const read = await new Response(await scratch.open(join(shared, "a.output"))).text();
  assert.equal(read, "hello");
  assert.equal((await names(run)).length, 2, "the session folder and its lock");
  await scratch[Symbol.asyncDispose]();
  assert.deepEqual(await names(run), []);
  await assert.rejects(Deno.stat(hidden), Deno.errors.NotFound);
  await assert.rejects(scratch.makeDir("x-"), TypeError);
});

Deno.test("SessionScratch refuses any path outside the folders it made", async () => {
  await using root = await tempRoot();
  await using scratch = new SessionScratch(join(root.dir, "run"));
  const dir = await scratch.makeDir("jobs-", { visibleToCommands: true });
  const victim = join(root.dir, "victim.txt");
  await Deno.writeTextFile(victim, "keep");
  const bytes = new Uint8Array([1]);
  await assert.rejects(scratch.writeFile(victim, bytes), /not in a scratch folder/);
  await assert.rejects(scratch.create(`${dir}-other/x`), /not in a scratch folder/);
  await assert.rejects(scratch.open(victim), /not in a scratch folder/);
  await assert.rejects(scratch.remove(root.dir), /not in a scratch folder/);
  await assert.rejects(scratch.remove(join(dir, "..")), /not in a scratch folder/);
  await assert.rejects(scratch.writeFile(`${dir}/../../victim.txt`, bytes), /not in a scratch/);
  assert.equal(await Deno.readTextFile(victim), "keep");
});

Deno.test("cleanStaleSessions() removes a dead session's folder and leaves a live one", async () => {
  await using root = await tempRoot();
  const run = join(root.dir, "run");
  await using live = new SessionScratch(run);
  const liveDir = await live.makeDir("jobs-", { visibleToCommands: true });
  const child = `import { SessionScratch } from ${
    JSON.stringify(new URL("./scratch_space.ts", import.meta.url).href)
  };
const dir = await new SessionScratch(Deno.args[0]).makeDir("jobs-", { visibleToCommands: true });
await Deno.writeTextFile(dir + "/x.output", "left behind");
Deno.exit(0);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", child, run],
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.equal((await names(run)).length, 4, "two sessions, each a folder and a lock");
  assert.deepEqual(await cleanStaleSessions(run), []);
  assert.equal((await names(run)).length, 2, "the dead session's folder and lock are gone");
  assert.ok((await Deno.stat(liveDir)).isDirectory, "the live session keeps its folder");
  assert.deepEqual(await cleanStaleSessions(join(root.dir, "missing")), []);
});

Deno.test("cleanStaleSessions() leaves a lock still being set up unless it is old", async () => {
  await using root = await tempRoot();
  const run = root.dir;
  for (const id of ["old", "new"]) {
    await Deno.writeTextFile(join(run, `.${id}.lock`), "");
    await Deno.mkdir(join(run, id));
  }
  const longAgo = new Date(Date.now() - 3_600_000);
  await Deno.utime(join(run, ".old.lock"), longAgo, longAgo);
  await cleanStaleSessions(run);
  assert.deepEqual((await names(run)).sort(), [".new.lock", "new"]);
});
