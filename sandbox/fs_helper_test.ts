/**
 * The file tools run through the helper process: inside bwrap both Deno's permission checks and
 * the kernel refuse escapes; with Deno's checks alone a symlink escape goes through, and in this
 * process nothing is refused, which shows each denial test can fail.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "./bwrap_args.ts";
import { type FileSystem, FsRefusedError, inProcessFs } from "./file_system.ts";
import {
  fileSystemFor,
  fsSandboxWarning,
  helperDenoArgs,
  isCompiledBinary,
  startFsHelper,
} from "./fs_helper_client.ts";
import { probeBubblewrap } from "./probe.ts";
import { ToolError } from "../lib/errors.ts";
import type { ToolContext } from "../lib/tools/capability.ts";
import { applyPatch } from "../lib/tools/apply_patch.ts";
import { fsEdit } from "../lib/tools/fs_edit.ts";
import { fsRead } from "../lib/tools/fs_read.ts";
import { fsWrite } from "../lib/tools/fs_write.ts";
import { need } from "./_test_requires.ts";

const BWRAP = await need("bwrap");
const noBwrap = BWRAP.ignore;
const why = BWRAP.note;
const probe = BWRAP.ok ? await probeBubblewrap() : undefined;
const bwrap = probe?.ok ? probe.bwrap : undefined;

function bwrapTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `${name}${why}`, ignore: noBwrap, fn });
}

interface Layout extends AsyncDisposable {
  ws: string;
  outside: string;
  policy: SandboxPolicy;
  ctx(fs: FileSystem): ToolContext;
}

/** `<root>/ws` with `.git/config`, `link -> ../outside`, `filelink -> ../outside/f`. */
async function layout(mode: SandboxPolicy["mode"] = "workspace-write"): Promise<Layout> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "fs_helper_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(join(ws, ".git"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(ws, ".git", "config"), "cfg\n");
  await Deno.writeTextFile(join(ws, "a.txt"), "one\ntwo\n");
  await Deno.writeTextFile(join(outside, "f"), "orig\n");
  await Deno.symlink("../outside", join(ws, "link"));
  await Deno.symlink("../outside/f", join(ws, "filelink"));
  const policy: SandboxPolicy = {
    mode,
    writableRoots: [ws],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: true,
  };
  return {
    ws,
    outside,
    policy,
    ctx: (fs) => ({
      callId: "test_call",
      progress: () => {},
      cwd: ws,
      signal: new AbortController().signal,
      env: {},
      state: new Map(),
      fs,
    }),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

async function refused(p: Promise<unknown>, why: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ToolError, `expected a ToolError, got ${err}`);
    assert.match(err.message, /^Write to ".+" was refused by the sandbox: /);
    assert.match(err.message, why);
    assert.ok(err.hint);
    return true;
  });
}

const outsideNames = (l: Layout) => [...Deno.readDirSync(l.outside)].map((e) => e.name).sort();

bwrapTest("fs tools write, edit and patch inside the workspace through the helper", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap });
  const ctx = l.ctx(fs);
  await fsWrite.run({ path: "sub/new.txt", content: "héllo\n" }, ctx);
  await Deno.chmod(join(l.ws, "a.txt"), 0o755);
  assert.deepEqual((await fsRead.run({ path: "a.txt" }, ctx)).lines, ["one", "two"]);
  await fsEdit.run({ path: "a.txt", old_string: "two", new_string: "2", require_read: true }, ctx);
  const patch = "*** Begin Patch\n*** Update File: sub/new.txt\n@@\n-héllo\n+world\n" +
    "*** Add File: b.txt\n+bee\n*** End Patch";
  await applyPatch.run({ patch }, ctx);
  assert.equal(await Deno.readTextFile(join(l.ws, "sub/new.txt")), "world\n");
  assert.equal(await Deno.readTextFile(join(l.ws, "a.txt")), "one\n2\n");
  assert.equal((await Deno.stat(join(l.ws, "a.txt"))).mode! & 0o777, 0o755);
  assert.equal(await Deno.readTextFile(join(l.ws, "b.txt")), "bee\n");
});

bwrapTest("the helper refuses a write to ../outside.txt, which works in process", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap });
  const write = (fs: FileSystem) =>
    fsWrite.run({ path: "../outside/x.txt", content: "x" }, l.ctx(fs));
  await refused(write(fs), /it is outside the writable roots$/);
  assert.deepEqual(outsideNames(l), ["f"]);
  await write(inProcessFs);
  assert.deepEqual(outsideNames(l), ["f", "x.txt"]);
});

bwrapTest("the helper refuses writes through symlinks that point outside", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap });
  const viaDir = (fs: FileSystem) => fsWrite.run({ path: "link/new.txt", content: "x" }, l.ctx(fs));
  const viaFile = (fs: FileSystem) =>
    fsEdit.run({ path: "filelink", old_string: "orig", new_string: "pwned" }, l.ctx(fs));
  await refused(viaDir(fs), /a symlink on the way resolves outside/);
  await refused(viaFile(fs), /refused/);
  assert.deepEqual(outsideNames(l), ["f"]);
  assert.equal(await Deno.readTextFile(join(l.outside, "f")), "orig\n");
  await viaDir(inProcessFs);
  await viaFile(inProcessFs);
  assert.deepEqual(outsideNames(l), ["f", "new.txt"]);
  assert.equal(await Deno.readTextFile(join(l.outside, "f")), "pwned\n");
  assert.ok((await Deno.lstat(join(l.ws, "filelink"))).isSymlink, "the link stays a link");
});

bwrapTest(
  "the helper makes symlinks and replaces a link itself, never through one outside",
  async () => {
    await using l = await layout();
    // Deno grants every write here: only the mounts keep the writes in the workspace.
    await using fs = await startFsHelper({ policy: l.policy, bwrap, symlinks: true });
    const bytes = new TextEncoder().encode("new\n");
    // noFollow: the link at the path is replaced by the file; the temp file was made in tempDir.
    await fs.writeFileAtomic(join(l.ws, "filelink"), bytes, { noFollow: true, tempDir: l.ws });
    assert.ok((await Deno.lstat(join(l.ws, "filelink"))).isFile);
    assert.equal(await Deno.readTextFile(join(l.outside, "f")), "orig\n");
    await fs.symlink("a.txt", join(l.ws, "made-link"));
    assert.equal(await Deno.readLink(join(l.ws, "made-link")), "a.txt");
    await assert.rejects(fs.symlink("/etc/passwd", join(l.ws, "link", "x")), FsRefusedError);
    await assert.rejects(
      fs.writeFileAtomic(join(l.ws, "link", "y"), bytes, { noFollow: true, tempDir: l.ws }),
      /cross-device link/,
    );
    await assert.rejects(fs.writeFileAtomic(join(l.ws, "link", "y"), bytes), FsRefusedError);
    await assert.rejects(fs.writeFileAtomic(join(l.outside, "z"), bytes), FsRefusedError);
    await assert.rejects(fs.mkdirp(join(l.ws, ".git", "hooks")), FsRefusedError);
    assert.deepEqual(outsideNames(l), ["f"]);
    assert.deepEqual([...Deno.readDirSync(l.ws)].filter((e) => e.name.endsWith(".tmp")), []);
    // The control: in this process the same symlink lands outside.
    await inProcessFs.symlink("/etc/passwd", join(l.ws, "link", "x"));
    assert.deepEqual(outsideNames(l), ["f", "x"]);
  },
);

bwrapTest("the helper keeps .git and missing protected names read-only", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy, bwrap });
  const edit = (fs: FileSystem) =>
    fsEdit.run({ path: ".git/config", old_string: "cfg", new_string: "x" }, l.ctx(fs));
  await refused(edit(fs), /it is a protected path \(\.git, /);
  await refused(fsWrite.run({ path: ".agents/a.md", content: "x" }, l.ctx(fs)), /protected/);
  assert.equal(await Deno.readTextFile(join(l.ws, ".git/config")), "cfg\n");
  await assert.rejects(Deno.stat(join(l.ws, ".agents")), Deno.errors.NotFound);
  await edit(inProcessFs);
  assert.equal(await Deno.readTextFile(join(l.ws, ".git/config")), "x\n");
});

bwrapTest("a read-only policy refuses every write", async () => {
  await using l = await layout("read-only");
  await using fs = await startFsHelper({ policy: l.policy, bwrap });
  await refused(
    fsWrite.run({ path: "a.txt", content: "x" }, l.ctx(fs)),
    /the sandbox is read-only$/,
  );
  assert.deepEqual((await fsRead.run({ path: "a.txt" }, l.ctx(fs))).lines, ["one", "two"]);
});

Deno.test("without bwrap the helper refuses lexical escapes but not symlink escapes", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy });
  const ctx = l.ctx(fs);
  await refused(fsWrite.run({ path: "../outside/x", content: "x" }, ctx), /outside the writable/);
  await refused(fsWrite.run({ path: ".git/hooks/pre-commit", content: "x" }, ctx), /protected/);
  await fsWrite.run({ path: "link/escaped.txt", content: "x" }, ctx);
  assert.deepEqual(outsideNames(l), ["escaped.txt", "f"], "why fsSandboxWarning() exists");
});

Deno.test("helper errors come back as Deno's error classes and become tool errors", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy });
  await assert.rejects(fs.readFile(join(l.ws, "missing")), Deno.errors.NotFound);
  await assert.rejects(fs.readFile(join(l.ws, ".git")), Deno.errors.IsADirectory);
  await assert.rejects(fsRead.run({ path: "missing" }, l.ctx(fs)), /file does not exist/);
  await assert.rejects(
    fsEdit.run({ path: ".git", old_string: "a", new_string: "b" }, l.ctx(fs)),
    /it is a directory/,
  );
});

Deno.test("the helper answers pipelined requests by id, bytes intact", async () => {
  await using l = await layout();
  await using fs = await startFsHelper({ policy: l.policy });
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const names = Array.from({ length: 50 }, (_, i) => join(l.ws, `f${i}.bin`));
  await Promise.all(names.map((n, i) => fs.writeFileAtomic(n, all.subarray(i))));
  const back = await Promise.all(names.map((n) => fs.readFile(n)));
  back.forEach((bytes, i) => assert.deepEqual(bytes, all.subarray(i)));
  assert.deepEqual(await fs.readFile(names[0], { offset: 250, length: 10 }), all.subarray(250));
  const stat = await fs.stat(names[0]);
  assert.ok(stat.mtime instanceof Date && stat.isFile && stat.size === 256);
  assert.ok((await fs.lstat(join(l.ws, "link"))).isSymlink);
  assert.ok((await fs.readDir(l.ws)).some((e) => e.name === "link" && e.isSymlink));
});

Deno.test("disposing the helper ends its process and later calls reject", async () => {
  await using l = await layout();
  const fs = await startFsHelper({ policy: l.policy });
  assert.ok(await Deno.stat(`/proc/${fs.pid}`));
  await fs[Symbol.asyncDispose]();
  await assert.rejects(Deno.stat(`/proc/${fs.pid}`), Deno.errors.NotFound);
  await assert.rejects(fs.stat(l.ws), /The file helper was stopped/);
});

Deno.test("helperDenoArgs() never prompts and denies protected names even when missing", () => {
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: ["/w", "/t"],
    protectedNames: [".git", ".agents"],
    networkAccess: true,
    privateTmp: false,
  };
  const args = helperDenoArgs(policy, { helperPath: "/h.ts", existingProtected: ["/g/.git"] });
  assert.ok(args.includes("--no-prompt"));
  assert.ok(args.includes("--allow-write=/w,/t"));
  assert.ok(args.includes("--deny-write=/w/.git,/w/.agents,/t/.git,/t/.agents,/g/.git"));
  assert.equal(args.at(-1), "/h.ts");
  const none = { helperPath: "/h.ts", existingProtected: [] };
  const ro = helperDenoArgs({ ...policy, mode: "read-only" }, none);
  assert.ok(!ro.some((a) => a.startsWith("--allow-write") || a.startsWith("--deny-write")));
  assert.throws(() => helperDenoArgs({ ...policy, writableRoots: ["/a,b"] }, none), /a comma/);
});

Deno.test("fileSystemFor() warns whenever no OS sandbox confines the file tools", async () => {
  await using l = await layout();
  const full = await fileSystemFor(undefined, { probeOk: false });
  await full.fs[Symbol.asyncDispose]();
  assert.equal(full.warning, fsSandboxWarning());
  assert.ok(!("pid" in full.fs), "danger-full-access runs in process");
  const denoOnly = await fileSystemFor(l.policy, { probeOk: false });
  await denoOnly.fs[Symbol.asyncDispose]();
  assert.equal(denoOnly.warning, fsSandboxWarning());
  assert.ok("pid" in denoOnly.fs, "a sandboxed mode still gets the helper's Deno permissions");
  if (noBwrap) return;
  const boxed = await fileSystemFor(l.policy, { probeOk: true, bwrap });
  await boxed.fs[Symbol.asyncDispose]();
  assert.equal(boxed.warning, undefined);
});

Deno.test("isCompiledBinary() tells deno itself from a compiled interpreter binary", () => {
  assert.equal(isCompiledBinary("/usr/local/bin/deno"), false);
  assert.equal(isCompiledBinary("C:\\tools\\deno.exe"), false);
  assert.equal(isCompiledBinary("/home/me/.local/bin/interpreter"), true);
  assert.equal(isCompiledBinary("C:\\Users\\me\\bin\\interpreter.exe"), true);
});
