/**
 * Run records with the real launcher and bubblewrap: a record is unclaimed until the launcher
 * starts, running while the sandbox lives and over only after it is gone; a revoked record keeps
 * its launcher from starting, and stays over while other runs go on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bwrapArgs, DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "./bwrap_args.ts";
import { PLACEHOLDER_MODE, PlaceholderGuard } from "./placeholders.ts";
import { DENO_PERMISSION_FLAGS } from "./deno_flags.ts";
import { probeBubblewrap } from "./probe.ts";
import { launcherArgs, RECORD_FD, revoke, REVOKED_EXIT_CODE, runState } from "./run_record.ts";
import { need } from "./_test_requires.ts";
import { until } from "../tests/e2e/_poll.ts";

const skip = (await need("bwrap")).note;
const probe = skip === "" ? await probeBubblewrap() : undefined;
const BWRAP = probe?.ok ? probe.bwrap : "bwrap";

function bwrapTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name: name + skip, ignore: skip !== "", fn });
}

interface Scratch extends AsyncDisposable {
  ws: string;
  guard: PlaceholderGuard;
  /** Starts `script` in a sandbox covering what `guard.cover()` returns, stdin piped. */
  start(script: string): Promise<{ child: Deno.ChildProcess; record: string }>;
}

async function scratch(): Promise<Scratch> {
  const parent = Deno.env.get("HOME") ?? "/var/tmp";
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: parent, prefix: "oi_rr_" }));
  const ws = join(root, "ws");
  const records = join(root, "records");
  await Deno.mkdir(ws);
  await Deno.mkdir(records);
  const guard = new PlaceholderGuard({
    roots: [ws],
    names: DEFAULT_PROTECTED_NAMES,
    recordDir: records,
  });
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: [ws],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: true,
  };
  return {
    ws,
    guard,
    async start(script) {
      const cover = await guard.cover();
      const argv = bwrapArgs(policy, {
        command: ["/bin/sh", "-c", script],
        cwd: ws,
        existingProtectedPaths: [...cover.existing, ...cover.placeholders],
        infoFd: RECORD_FD,
      });
      const args = launcherArgs({ bwrap: BWRAP, bwrapArgs: argv, record: cover.record });
      const child = new Deno.Command("/bin/sh", { args, stdin: "piped", stdout: "piped" }).spawn();
      return { child, record: cover.record! };
    },
    async [Symbol.asyncDispose]() {
      await guard[Symbol.asyncDispose]();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Reads the child's first line: the sandboxed script prints one once it runs. */
async function firstLine(child: Deno.ChildProcess): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return value ?? "";
}

async function finish(child: Deno.ChildProcess): Promise<void> {
  await child.stdin.close();
  await child.status;
}

/** Waits until `record` is over: the sandbox's init goes a moment after the launcher. */
async function over(record: string): Promise<void> {
  await until("the run to end", async () => (await runState(record)) === "over", 10_000);
}

bwrapTest("runState() follows a run from unclaimed to running to over", async () => {
  await using s = await scratch();
  const cover = await s.guard.cover();
  assert.equal(await runState(cover.record!), "unclaimed");
  const { child, record } = await s.start("echo up; read x");
  assert.equal(await firstLine(child), "up\n");
  assert.equal(await runState(record), "running");
  await finish(child);
  await over(record);
  assert.equal(await s.guard.reclaim({ revokeUnclaimed: true }), true);
});

bwrapTest("a revoked record keeps its launcher from starting the sandbox", async () => {
  await using s = await scratch();
  const cover = await s.guard.cover();
  assert.equal(await revoke(cover.record!), true);
  assert.equal(await revoke(cover.record!), false, "revoking twice finds it taken");
  assert.equal(await runState(cover.record!), "over");
  const argv = ["--ro-bind", "/", "/", "--", "/bin/sh", "-c", `echo ran > ${s.ws}/ran`];
  const out = await new Deno.Command("/bin/sh", {
    args: launcherArgs({ bwrap: BWRAP, bwrapArgs: argv, record: cover.record }),
    stderr: "piped",
  }).output();
  assert.equal(out.code, REVOKED_EXIT_CODE);
  assert.match(new TextDecoder().decode(out.stderr), /released before it started/);
  await assert.rejects(Deno.stat(join(s.ws, "ran")));
});

bwrapTest("reclaim() waits for a running sandbox after revoking an unclaimed record", async () => {
  await using s = await scratch();
  await s.guard.cover(); // wrapped, never started
  const { child, record } = await s.start("echo up; read x");
  assert.equal(await firstLine(child), "up\n");
  assert.equal(await s.guard.reclaim({ revokeUnclaimed: true }), false);
  assert.equal(await s.guard.reclaim({ revokeUnclaimed: true }), false, "still running");
  await finish(child);
  await over(record);
  assert.equal(await s.guard.reclaim(), true, "the revoked record counts as over from now on");
  assert.deepEqual(await Array.fromAsync(Deno.readDir(s.ws)), []);
});

/** Runs `runStates()` and `sweepPlaceholders()` in a Deno with the agent's own permissions. */
async function asTheAgent(records: string[], ws: string): Promise<unknown> {
  const code = `
    import { runStates } from ${JSON.stringify(import.meta.resolve("./run_record.ts"))};
    import { sweepPlaceholders } from ${JSON.stringify(import.meta.resolve("./placeholders.ts"))};
    const [ws, ...records] = Deno.args;
    const states = await runStates(records);
    const removed = await sweepPlaceholders([ws], [".agents"]);
    console.log(JSON.stringify({ states, removed }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...DENO_PERMISSION_FLAGS, "--no-config", code, ws, ...records],
    stderr: "inherit",
  }).output();
  assert.ok(out.success);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

bwrapTest(
  "runStates() and sweeps read /proc with the agent's permissions (no --allow-all)",
  async () => {
    await using s = await scratch();
    const { child, record } = await s.start("echo up; read x");
    assert.equal(await firstLine(child), "up\n");
    // A placeholder a crashed session left, which its still running sandbox covers: no lock.
    const orphan = join(s.ws, "..", "orphan");
    const agents = join(orphan, ".agents");
    await Deno.mkdir(agents, { recursive: true });
    await Deno.chmod(agents, PLACEHOLDER_MODE);
    const covering = new Deno.Command(BWRAP, {
      args: ["--ro-bind", "/", "/", "--bind", orphan, orphan, "--ro-bind", agents, agents]
        .concat(["--unshare-user", "--", "sh", "-c", "echo up; read x"]),
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    assert.equal(await firstLine(covering), "up\n");
    assert.deepEqual(await asTheAgent([record], orphan), { states: ["running"], removed: [] });
    await finish(child);
    await finish(covering);
    await over(record);
    assert.deepEqual(await asTheAgent([record], orphan), { states: ["over"], removed: [agents] });
  },
);
