/**
 * The escape suite (reference/sandbox.md §7) through the real `shell.run` capability with the
 * session sandbox wired in, in read-only and workspace-write, as root and as `nobody`. Every
 * denial has a control: the same command without the sandbox does escape.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { shellRun } from "./shell_run.ts";
import type { ToolContext } from "./capability.ts";
import {
  type CommandSandbox,
  openCommandSandbox,
  type SandboxMode,
} from "../../sandbox/command_sandbox.ts";
import { commandEnvironment } from "../../sandbox/env_policy.ts";
import { hostSeccompArch } from "../../sandbox/seccomp_bpf.ts";
import { RUNNER_NAME } from "../../sandbox/warm_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { need } from "../../sandbox/_test_requires.ts";

const [BWRAP, PYTHON] = [await need("bwrap"), await need("python3")];
const skipReason = !BWRAP.ok
  ? BWRAP.why
  : !PYTHON.ok
  ? PYTHON.why
  : hostSeccompArch() === undefined
  ? "needs x86_64 or aarch64 for the seccomp filter"
  : undefined;
const canSwitchUser = Deno.uid() === 0 &&
  await new Deno.Command("setpriv", {
    args: ["--reuid=65534", "--regid=65534", "--clear-groups", "true"],
  })
    .output().then((o) => o.success, () => false);
const NOBODY = 65534;

interface Fixture extends AsyncDisposable {
  root: string;
  ws: string;
  outside: string;
  hostTmp: string;
  port: number;
  unixSocket: string;
}

/** `<root>/ws` (with .git, .openinterpreter and two symlinks out), `<root>/outside/f`, servers. */
async function fixture(): Promise<Fixture> {
  // Under /var/tmp, not /tmp: the private /tmp would hide the outside directory altogether.
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: "/var/tmp", prefix: "oi_esc_" }));
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(join(ws, ".git"), { recursive: true });
  await Deno.mkdir(join(ws, ".openinterpreter"));
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(ws, ".git", "config"), "cfg");
  await Deno.writeTextFile(join(outside, "f"), "orig");
  await Deno.symlink("../outside", join(ws, "link"));
  await Deno.symlink("../outside/f", join(ws, "filelink"));
  await new Deno.Command("chmod", { args: ["-R", "a+rwX", root] }).output();
  const hostTmp = `/tmp/oi_host_tmp_${crypto.randomUUID()}`;
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const unixSocket = join(root, "host.sock");
  const server = new Deno.Command("python3", {
    args: ["-c", UNIX_SERVER, unixSocket],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const ready = server.stdout.getReader();
  await ready.read();
  ready.releaseLock();
  const accepting = (async () => {
    for await (const conn of tcp) conn.close();
  })().catch(() => {});
  return {
    root,
    ws,
    outside,
    hostTmp,
    port: (tcp.addr as Deno.NetAddr).port,
    unixSocket,
    async [Symbol.asyncDispose]() {
      tcp.close();
      await accepting;
      server.kill();
      await server.status;
      await server.stdout.cancel().catch(() => {});
      await Deno.remove(root, { recursive: true });
      await Deno.remove(hostTmp).catch(() => {});
    },
  };
}

const UNIX_SERVER = `
import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.listen()
print("ready", flush=True)
while True:
    c, _ = s.accept(); c.sendall(b"hello-unix"); c.close()
`;

function connectTcp(port: number): string {
  return `python3 -c 'import socket; socket.create_connection(("127.0.0.1", ${port}), timeout=2); print("CONNECTED")'`;
}

function connectUnix(path: string): string {
  return `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("${path}"); print(s.recv(20).decode())'`;
}

/** `setpriv` arguments that run a program as `uid` (bwrap takes other code paths for non-root). */
function setprivAs(uid: number): string[] {
  return ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--"];
}

/** Runs every command `wrap()` sandboxes as `uid`; the sandbox runs its prepared ones so. */
function asUser(sandbox: CommandSandbox, uid: number): CommandSandbox {
  return {
    ...sandbox,
    async wrap(req) {
      const spec = await sandbox.wrap(req);
      const [cmd, ...ids] = setprivAs(uid);
      return { cmd, args: [...ids, spec.cmd, ...spec.args], env: spec.env };
    },
  };
}

function context(fx: Fixture, sandbox?: CommandSandbox, env?: Record<string, string>) {
  const ctx: ToolContext = {
    callId: "test_call",
    progress: () => {},
    cwd: fx.ws,
    signal: new AbortController().signal,
    env: env ?? { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: fx.ws },
    state: new Map(),
    sandbox,
    fs: inProcessFs,
  };
  return (command: string) => shellRun.run({ command, timeout_ms: 20_000 }, ctx);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/**
 * The suite, with each command in a sandbox prepared ahead (`prepared`) or made for it; as `uid`
 * when given.
 */
async function escapeSuite(mode: SandboxMode, prepared: boolean, uid?: number): Promise<void> {
  await using fx = await fixture();
  const opened = await openCommandSandbox({
    mode,
    writableRoots: [fx.ws],
    networkAccess: false,
    launcherPrefix: uid === undefined ? undefined : setprivAs(uid),
  });
  try {
    const user = uid === undefined ? opened : asUser(opened, uid);
    const sandbox = prepared ? user : { ...user, spawn: undefined };
    const run = context(fx, sandbox);
    const bare = context(fx);
    const denied = async (command: string, hostPath: string, before?: string) => {
      const out = await run(command);
      assert.notEqual(out.exitCode, 0, `${command} must fail: ${out.output}`);
      if (before === undefined) assert.equal(await exists(hostPath), false, command);
      else assert.equal(await Deno.readTextFile(hostPath), before, command);
    };

    const who = await run("id -u; tr '\\0' ' ' < /proc/1/cmdline");
    assert.equal(who.output.split("\n")[0], String(uid ?? 0), who.output);
    assert.equal(who.output.includes(RUNNER_NAME), prepared, who.output);

    const inside = await run("echo ok > inside.txt && cat inside.txt");
    if (mode === "workspace-write") assert.equal(inside.exitCode, 0, inside.output);
    else assert.match(inside.output, /Read-only file system/);

    await denied(`echo x > ${fx.outside}/new.txt`, join(fx.outside, "new.txt"));
    await denied("echo x > ../outside/trav.txt", join(fx.outside, "trav.txt"));
    await denied("echo x > link/d.txt", join(fx.outside, "d.txt"));
    await denied("echo x > filelink", join(fx.outside, "f"), "orig");
    await denied("echo x >> .git/config", join(fx.ws, ".git", "config"), "cfg");
    await denied("echo x > .openinterpreter/x", join(fx.ws, ".openinterpreter", "x"));
    assert.match((await run("mv .git git2")).output, /busy|Read-only/);

    const tmp = await run(`echo x > ${fx.hostTmp} && cat ${fx.hostTmp}`);
    assert.equal(tmp.exitCode, 0, `the private /tmp is writable: ${tmp.output}`);
    assert.equal(await exists(fx.hostTmp), false, "a write to /tmp must not reach the host");

    assert.doesNotMatch((await run(connectTcp(fx.port))).output, /CONNECTED/);
    const unix = await run(connectUnix(fx.unixSocket));
    assert.match(unix.output, /Operation not permitted/);
    assert.notEqual(unix.exitCode, 0);
    const userns = await run("unshare -U -r true");
    assert.notEqual(userns.exitCode, 0, userns.output);
    // A missing protected name is covered by a placeholder while commands may run; none stays.
    for (let i = 0; i < 500 && !(await opened.reclaim?.()); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(await exists(join(fx.ws, ".agents")), false, "no placeholder files on the host");

    // Controls: the same probes escape without the sandbox.
    assert.equal((await bare(`echo x > ${fx.outside}/new.txt`)).exitCode, 0);
    assert.equal(await Deno.readTextFile(join(fx.outside, "new.txt")), "x\n");
    assert.equal((await bare("echo x > filelink")).exitCode, 0);
    assert.equal(await Deno.readTextFile(join(fx.outside, "f")), "x\n");
    assert.equal((await bare("echo x >> .git/config")).exitCode, 0);
    assert.equal((await bare(`echo x > ${fx.hostTmp}`)).exitCode, 0);
    assert.equal(await exists(fx.hostTmp), true);
    assert.match((await bare(connectTcp(fx.port))).output, /CONNECTED/);
    assert.match((await bare(connectUnix(fx.unixSocket))).output, /hello-unix/);
    assert.equal((await bare("unshare -U -r true")).exitCode, 0);
  } finally {
    await opened.close();
  }
}

for (const mode of ["read-only", "workspace-write"] as const) {
  for (const prepared of [true, false]) {
    const how = prepared ? "prepared ahead" : "made for the command";
    Deno.test({
      name: `shellRun() under a ${mode} sandbox ${how} blocks every escape that works without it` +
        (skipReason ? ` (SKIPPED: ${skipReason})` : ""),
      ignore: skipReason !== undefined,
      fn: () => escapeSuite(mode, prepared),
    });
    const nonRootSkip = skipReason ??
      (canSwitchUser ? undefined : "needs root and setpriv to switch to nobody");
    Deno.test({
      name: `shellRun() under a ${mode} sandbox ${how} blocks every escape as a non-root user` +
        (nonRootSkip ? ` (SKIPPED: ${nonRootSkip})` : ""),
      ignore: nonRootSkip !== undefined,
      fn: () => escapeSuite(mode, prepared, NOBODY),
    });
  }
}

Deno.test("shellRun() hides secret-named variables from commands unless the policy allows them", async () => {
  await using fx = await fixture();
  const parent = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", MY_API_KEY: "s3cret" };
  const policy = {
    inherit: "all" as const,
    ignore_default_excludes: false,
    exclude: [],
    include_only: [],
    set: {},
  };
  const hidden = context(fx, undefined, commandEnvironment(policy, parent));
  assert.equal((await hidden('echo "k=$MY_API_KEY"')).output, "k=\n");
  const shown = context(
    fx,
    undefined,
    commandEnvironment({ ...policy, ignore_default_excludes: true }, parent),
  );
  assert.equal((await shown('echo "k=$MY_API_KEY"')).output, "k=s3cret\n");
});

Deno.test({
  name: "shellRun() refuses to run when the sandbox is unavailable, and runs an escalated call",
  async fn() {
    await using fx = await fixture();
    const sandbox = await openCommandSandbox({
      mode: "workspace-write",
      writableRoots: [fx.ws],
      networkAccess: false,
      os: "linux",
      bwrap: "/nonexistent/bwrap",
    });
    assert.equal(sandbox.status.enforced, false);
    const ctx = {
      callId: "test_call",
      progress: () => {},
      cwd: fx.ws,
      signal: new AbortController().signal,
      env: {},
      state: new Map(),
      fs: inProcessFs,
    };
    await assert.rejects(
      () => shellRun.run({ command: "echo x > f.txt" }, { ...ctx, sandbox }),
      /bubblewrap is not installed; it was not run/,
    );
    assert.equal(await exists(join(fx.ws, "f.txt")), false);
    const out = await shellRun.run({ command: "echo ok", escalated: true }, { ...ctx, sandbox });
    assert.equal(out.output, "ok\n");
  },
});

Deno.test({
  name: "shellRun() asks to rerun unsandboxed after a sandbox denial (on-failure)" +
    (skipReason ? ` (SKIPPED: ${skipReason})` : ""),
  ignore: skipReason !== undefined,
  async fn() {
    await using fx = await fixture();
    const asked: string[] = [];
    const sandbox = await openCommandSandbox({
      mode: "workspace-write",
      writableRoots: [fx.ws],
      networkAccess: false,
      retryUnsandboxed: (command) => Promise.resolve(asked.push(command) > 0),
    });
    try {
      const run = context(fx, sandbox);
      const out = await run(`echo x > ${fx.outside}/retry.txt`);
      assert.equal(out.exitCode, 0, out.output);
      assert.deepEqual(asked, [`echo x > ${fx.outside}/retry.txt`]);
      assert.equal(await Deno.readTextFile(join(fx.outside, "retry.txt")), "x\n");
      assert.equal((await run("exit 3")).exitCode, 3);
      assert.equal(asked.length, 1, "a plain failure is not blamed on the sandbox");
    } finally {
      await sandbox.close();
    }
  },
});
