/**
 * Real escape attempts under bwrap built by `bwrapArgs()` in workspace-write mode with the network
 * off (reference/sandbox.md §7). Each denial has a control that shows the probe itself works.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bwrapArgs, DEFAULT_PROTECTED_NAMES, protectedPathsUnder } from "./bwrap_args.ts";
import { hostSeccompArch, seccompFilter, shellWithSeccompFd } from "./seccomp_bpf.ts";
import { need } from "./_test_requires.ts";

const arch = hostSeccompArch();
const [BWRAP, PYTHON] = [await need("bwrap"), await need("python3")];
const why = BWRAP.note || PYTHON.note ||
  (arch === undefined ? " (SKIPPED: needs x86_64 or aarch64)" : "");
const ignore = why !== "";

interface Layout {
  root: string;
  ws: string;
  outside: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** `<root>/ws` with `.git/config`, `link -> ../outside`, `filelink -> ../outside/f`. */
async function layout(): Promise<Layout> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "escape_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(join(ws, ".git"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(ws, ".git", "config"), "cfg");
  await Deno.writeTextFile(join(outside, "f"), "orig");
  await Deno.symlink("../outside", join(ws, "link"));
  await Deno.symlink("../outside/f", join(ws, "filelink"));
  return {
    root,
    ws,
    outside,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

interface RunOptions {
  network?: boolean;
  privateTmp?: boolean;
  seccomp?: boolean;
}

/** Runs `sh -c script` in the sandbox with cwd = ws; returns exit code and combined output. */
async function sandboxed(ws: string, script: string, opts: RunOptions = {}) {
  const argv = bwrapArgs({
    mode: "workspace-write",
    writableRoots: [ws],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: opts.network ?? false,
    privateTmp: opts.privateTmp ?? false,
  }, {
    command: ["/bin/sh", "-c", script],
    cwd: ws,
    seccompFd: opts.seccomp ? 3 : undefined,
    existingProtectedPaths: await protectedPathsUnder([ws], DEFAULT_PROTECTED_NAMES),
  });
  const filter = join(ws, "..", "filter.bpf");
  await Deno.writeFile(filter, opts.seccomp ? seccompFilter(arch!) : new Uint8Array());
  const out = await new Deno.Command("/bin/sh", {
    args: shellWithSeccompFd(filter, argv),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

function test(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `${name}${why}`, ignore, fn });
}

test("sandbox allows writes inside the workspace and denies them outside", async () => {
  await using l = await layout();
  assert.equal((await sandboxed(l.ws, "echo x > inside.txt")).code, 0);
  assert.equal(await Deno.readTextFile(join(l.ws, "inside.txt")), "x\n");
  const outside = await sandboxed(l.ws, `echo x > ${l.outside}/new`);
  assert.notEqual(outside.code, 0);
  assert.match(outside.output, /Read-only file system/);
});

test("sandbox denies .. traversal out of the workspace", async () => {
  await using l = await layout();
  const r = await sandboxed(l.ws, "mkdir -p sub && echo x > sub/../../outside/new");
  assert.notEqual(r.code, 0);
  assert.match(r.output, /Read-only file system/);
  assert.deepEqual([...Deno.readDirSync(l.outside)].map((e) => e.name), ["f"]);
});

test("sandbox denies writes through symlinks that point outside", async () => {
  await using l = await layout();
  assert.match((await sandboxed(l.ws, "echo x > link/new")).output, /Read-only file system/);
  assert.match((await sandboxed(l.ws, "echo x > filelink")).output, /Read-only file system/);
  const fresh = await sandboxed(l.ws, `ln -s ${l.outside} l2 && echo x > l2/new`);
  assert.match(fresh.output, /Read-only file system/);
  assert.equal(await Deno.readTextFile(join(l.outside, "f")), "orig");
});

test("sandbox keeps .git read-only inside a writable workspace", async () => {
  await using l = await layout();
  const write = await sandboxed(l.ws, "echo x > .git/x");
  assert.match(write.output, /Read-only file system/);
  assert.notEqual((await sandboxed(l.ws, "mv .git git2")).code, 0);
  assert.equal(await Deno.readTextFile(join(l.ws, ".git", "config")), "cfg");
  await assert.rejects(Deno.stat(join(l.ws, ".agents")), Deno.errors.NotFound);
});

test("sandbox gives a private /tmp that the host never sees", async () => {
  await using l = await layout();
  const name = `/tmp/escape_probe_${crypto.randomUUID()}`;
  const r = await sandboxed(l.ws, `echo x > ${name} && cat ${name}`, { privateTmp: true });
  assert.equal(r.code, 0, r.output);
  await assert.rejects(Deno.stat(name), Deno.errors.NotFound);
});

const CONNECT = (port: number) =>
  `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 2); print('connected')"`;

test("sandbox without network cannot reach a host loopback server", async () => {
  await using l = await layout();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("hi"),
  );
  const port = server.addr.port;
  const off = await sandboxed(l.ws, CONNECT(port));
  assert.notEqual(off.code, 0);
  assert.match(off.output, /Connection refused|unreachable/i);
  const on = await sandboxed(l.ws, CONNECT(port), { network: true });
  assert.match(on.output, /connected/);
});

test("sandbox forbids nested user namespaces", async () => {
  await using l = await layout();
  const r = await sandboxed(l.ws, "unshare -U true");
  assert.notEqual(r.code, 0);
  assert.match(r.output, /No space left on device|Operation not permitted/);
});

const UNIX_SOCKET = `python3 -c "import socket; socket.socket(socket.AF_UNIX); print('created')"`;

test("sandbox with the seccomp filter cannot create AF_UNIX sockets", async () => {
  await using l = await layout();
  assert.match((await sandboxed(l.ws, UNIX_SOCKET)).output, /created/);
  const blocked = await sandboxed(l.ws, UNIX_SOCKET, { seccomp: true });
  assert.notEqual(blocked.code, 0);
  assert.match(blocked.output, /PermissionError: \[Errno 1\]/);
});
