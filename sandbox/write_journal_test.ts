import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "./bwrap_args.ts";
import { FsRefusedError, inProcessFs, isTempFileName } from "./file_system.ts";
import { startFsHelper } from "./fs_helper_client.ts";
import { cleanStaleSessions, SessionScratch } from "./scratch_space.ts";
import { journaledFileSystem, removeJournaledTemps } from "./write_journal.ts";

interface Dirs extends AsyncDisposable {
  ws: string;
  run: string;
}

async function dirs(): Promise<Dirs> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_journal_" }));
  await Deno.mkdir(join(root, "ws"));
  return {
    ws: join(root, "ws"),
    run: join(root, "run"),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

const names = async (dir: string) =>
  (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();

Deno.test("journaledFileSystem() keeps a record only while a write is in flight", async () => {
  await using d = await dirs();
  await using scratch = new SessionScratch(d.run);
  const fs = journaledFileSystem(inProcessFs, () => scratch.journalDir());
  await fs.writeFileAtomic(join(d.ws, "a.txt"), new TextEncoder().encode("a"), { mode: 0o640 });
  assert.equal(await Deno.readTextFile(join(d.ws, "a.txt")), "a");
  assert.equal((await Deno.stat(join(d.ws, "a.txt"))).mode! & 0o777, 0o640);
  await assert.rejects(
    fs.writeFileAtomic(join(d.ws, "missing", "b.txt"), new Uint8Array()),
    Deno.errors.NotFound,
  );
  assert.deepEqual(await names(await scratch.journalDir()), []);
  assert.deepEqual(await names(d.ws), ["a.txt"]);
});

Deno.test("journaledFileSystem() over the file helper names the helper's temporary file", async () => {
  await using d = await dirs();
  await using scratch = new SessionScratch(d.run);
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: [d.ws],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: false,
  };
  await using helper = await startFsHelper({ policy });
  const fs = journaledFileSystem(helper, () => scratch.journalDir());
  await fs.writeFileAtomic(join(d.ws, "a.txt"), new TextEncoder().encode("a"));
  assert.equal(await Deno.readTextFile(join(d.ws, "a.txt")), "a");
  await assert.rejects(
    fs.writeFileAtomic(join(d.run, "x.txt"), new Uint8Array()),
    FsRefusedError,
  );
  assert.deepEqual(await names(await scratch.journalDir()), []);
  assert.deepEqual(await names(d.ws), ["a.txt"]);
  await assert.rejects(
    helper.writeFileAtomic(join(d.ws, "b.txt"), new Uint8Array(), { tempName: "../b.tmp" }),
    /is not a temporary file name/,
  );
});

Deno.test("removeJournaledTemps() removes only files named as temporary files", async () => {
  await using d = await dirs();
  const journal = join(d.run, "writes");
  await Deno.mkdir(journal, { recursive: true });
  const temp = join(d.ws, ".a.txt.0123abcd.tmp");
  const victim = join(d.ws, "victim.txt");
  const link = join(d.ws, ".v.txt.89abcdef.tmp");
  await Deno.writeTextFile(temp, "partial");
  await Deno.writeTextFile(victim, "keep");
  await Deno.symlink(victim, link);
  for (const [i, path] of [temp, victim, link, "relative/.x.0123abcd.tmp", ""].entries()) {
    await Deno.writeTextFile(join(journal, `r${i}`), path);
  }
  assert.deepEqual(await removeJournaledTemps(journal), [temp]);
  assert.deepEqual(await names(d.ws), [".v.txt.89abcdef.tmp", "victim.txt"]);
  assert.deepEqual(await names(journal), [], "the records are used up");
  assert.deepEqual(await removeJournaledTemps(join(d.run, "none")), []);
});

/**
 * A session that writes 64 MiB to `<ws>/big.bin` over and over, atomically, journaled unless its
 * third argument is "plain".
 */
const WRITER = `
import { inProcessFs } from ${JSON.stringify(new URL("./file_system.ts", import.meta.url).href)};
import { SessionScratch } from ${
  JSON.stringify(new URL("./scratch_space.ts", import.meta.url).href)
};
import { journaledFileSystem } from ${
  JSON.stringify(new URL("./write_journal.ts", import.meta.url).href)
};
const [ws, run, how] = Deno.args;
const scratch = new SessionScratch(run);
const fs = how === "plain" ? inProcessFs : journaledFileSystem(inProcessFs, () => scratch.journalDir());
const data = new Uint8Array(64 * 1024 * 1024).fill(120);
for (;;) await fs.writeFileAtomic(ws + "/big.bin", data);
`;

/** Starts the writer, SIGKILLs it once a temporary file exists; the file if it survived. */
async function killMidWrite(
  d: Dirs,
  opts: { deadline: number; plain?: boolean },
): Promise<string | undefined> {
  const deadline = opts.deadline;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", WRITER, d.ws, d.run, opts.plain ? "plain" : "journaled"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    while (Date.now() < deadline) {
      const temp = (await names(d.ws)).find(isTempFileName);
      if (temp !== undefined) {
        child.kill("SIGKILL");
        await child.status;
        return await Deno.lstat(join(d.ws, temp)).then(() => temp, () => undefined);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    return undefined;
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // It is gone already.
    }
    await child.status;
  }
}

async function crashedWrite(d: Dirs, plain = false): Promise<string> {
  const deadline = Date.now() + 60_000;
  let temp: string | undefined;
  while (temp === undefined && Date.now() < deadline) {
    temp = await killMidWrite(d, { deadline, plain });
  }
  assert.ok(temp, "caught a write in flight before the deadline");
  assert.ok((await names(d.ws)).includes(temp), "the crash left debris in the workspace");
  return temp;
}

Deno.test("a write killed by SIGKILL leaves a temporary file that the next start removes", async () => {
  await using d = await dirs();
  const temp = await crashedWrite(d);
  assert.deepEqual(await cleanStaleSessions(d.run), [join(d.ws, temp)]);
  assert.deepEqual((await names(d.ws)).filter(isTempFileName), [], "no debris after start-up");
  assert.deepEqual(await names(d.run), [], "the dead session's folder is gone too");
});

Deno.test("without the journal the debris of a killed write stays (control)", async () => {
  await using d = await dirs();
  const temp = await crashedWrite(d, true);
  assert.deepEqual(await cleanStaleSessions(d.run), []);
  assert.ok((await names(d.ws)).includes(temp));
});
