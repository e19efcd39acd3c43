/**
 * Several sandboxes prepared ahead (`WarmOptions.depth`): that many are kept prepared or in use,
 * each still serves one command, and closing or idling ends every one of them. The runners run
 * without bwrap here, as in warm_sandbox_test.ts; under bwrap the session's sandbox uses a depth
 * above 1, so the tests there cover it too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type PreparedProcess, type WarmOptions, WarmSandboxes } from "./warm_sandbox.ts";
import { until } from "../tests/e2e/_poll.ts";

const PATH = "/usr/bin:/bin";

async function collect(child: PreparedProcess): Promise<string> {
  const [stdout] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  return stdout;
}

/** Runners started by `sh`, which writes each one's pid to `pids` first (exec keeps it). */
async function runners(depth: number, opts: Partial<WarmOptions> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "oi_warm_depth_" });
  const pids = join(dir, "pids");
  let prepared = 0;
  const ended: number[] = [];
  const warm = new WarmSandboxes({
    prepare: (runner) => {
      prepared++;
      const args = ["-c", `echo $$ >> '${pids}'; exec "$@"`, "sh", ...runner];
      return Promise.resolve({ cmd: "/bin/sh", args, env: {} });
    },
    watched: [],
    ended: () => ended.push(Date.now()),
    depth,
    ...opts,
  });
  return {
    warm,
    ended,
    prepared: () => prepared,
    pids: async () =>
      (await Deno.readTextFile(pids).catch(() => "")).split("\n").filter(Boolean).map(Number),
    [Symbol.asyncDispose]: async () => {
      await warm.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

const runner = (stdout: string) => Number(stdout.trim());

Deno.test("with depth 3, three sandboxes are kept prepared, one per command", async () => {
  await using r = await runners(3);
  const req = { argv: ["sh", "-c", "echo $PPID"], cwd: "/", env: { PATH } };
  const first = runner(await collect((await r.warm.take(req))!));
  assert.equal(await r.warm.ready(), true);
  assert.equal(r.prepared(), 4, "the first one, then three ahead");
  const next = await r.warm.take(req);
  assert.ok(next);
  // The one taken is replaced as its command starts.
  await until("the fifth sandbox to be prepared", () => r.prepared() === 5);
  const second = runner(await collect(next));
  assert.equal(await r.warm.ready(), true);
  assert.equal(r.prepared(), 5, "and not again once it ended");
  const third = runner(await collect((await r.warm.take(req))!));
  assert.equal(new Set([first, second, third]).size, 3, "three commands, three runners");
  assert.equal(r.ended.length, 0);
});

Deno.test("close() ends every prepared sandbox", async () => {
  const r = await runners(3);
  try {
    await collect((await r.warm.take({ argv: ["true"], cwd: "/", env: { PATH } }))!);
    assert.equal(await r.warm.ready(), true);
    await until("three runners to be started", async () => (await r.pids()).length === 4);
  } finally {
    await r[Symbol.asyncDispose]().catch(() => {});
  }
  assert.equal(r.ended.length, 3, "each prepared one was ended");
});

Deno.test("prepared sandboxes left unused all end after the idle time", async () => {
  await using r = await runners(3, { idleMs: 50 });
  await collect((await r.warm.take({ argv: ["true"], cwd: "/", env: { PATH } }))!);
  assert.equal(await r.warm.ready(), true);
  await until("the idle runners to end", () => r.ended.length >= 3, 5_000);
  const pids = await r.pids();
  assert.equal(pids.length, 4);
  await until("no runner left", () => pids.every((pid) => !alive(pid)), 5_000);
  assert.equal(await r.warm.ready(), false, "none is prepared until a command asks");
});
