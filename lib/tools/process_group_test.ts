import assert from "node:assert/strict";
import {
  CappedOutput,
  type PipeName,
  signalGroup,
  spawnInGroup,
  superviseChild,
} from "./process_group.ts";
import { alive, until } from "../../tests/e2e/_poll.ts";

const posix = Deno.build.os !== "windows";

function sh(script: string, env: Record<string, string> = {}) {
  const path = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  return spawnInGroup({
    cmd: "sh",
    args: ["-c", script],
    cwd: Deno.cwd(),
    env: { ...path, ...env },
  });
}

function collector() {
  const out: Record<PipeName, CappedOutput> = {
    stdout: new CappedOutput(1024, 0),
    stderr: new CappedOutput(1024, 0),
  };
  return { out, onChunk: (stream: PipeName, chunk: Uint8Array) => out[stream].push(chunk) };
}

Deno.test("control: superviseChild() reads both pipes of a quick child with only its env", async () => {
  const { out, onChunk } = collector();
  const child = sh('echo "out $GIVEN"; echo err >&2; exit 3', { GIVEN: "yes" });
  const end = await superviseChild(child, { timeoutMs: 10_000, graceMs: 200, onChunk });
  assert.equal(end.status.code, 3);
  assert.equal(end.killed, null);
  assert.equal(out.stdout.text(), "out yes\n");
  assert.equal(out.stderr.text(), "err\n");
});

Deno.test({
  name: "superviseChild() kills the whole process group at the timeout, a grandchild too",
  ignore: !posix,
  async fn() {
    const { out, onChunk } = collector();
    const child = sh("sleep 30 & echo $!; wait");
    const end = await superviseChild(child, { timeoutMs: 300, graceMs: 200, onChunk });
    assert.equal(end.killed, "timeout");
    const grandchild = Number(out.stdout.text().trim());
    assert.ok(grandchild > 0, out.stdout.text());
    await until("the grandchild to end", () => !alive(grandchild));
  },
});

Deno.test("superviseChild() rejects with the abort reason and kills the child", async () => {
  const controller = new AbortController();
  const child = sh("echo started; sleep 30");
  const reason = new Error("cancelled by test");
  const { onChunk } = collector();
  const running = superviseChild(child, {
    timeoutMs: 30_000,
    graceMs: 200,
    signal: controller.signal,
    onChunk: (stream, chunk) => {
      onChunk(stream, chunk);
      controller.abort(reason);
    },
  });
  await assert.rejects(running, (error) => error === reason);
  assert.equal((await child.status).success, false);
});

Deno.test("superviseChild() stops reading a grace after exit when a background child holds the pipes", async () => {
  const { out, onChunk } = collector();
  const child = sh("(sleep 5; echo late) & echo now");
  const started = performance.now();
  const end = await superviseChild(child, { timeoutMs: 30_000, graceMs: 200, onChunk });
  assert.equal(end.status.code, 0);
  assert.ok(performance.now() - started < 4000, "waited for the background child");
  assert.equal(out.stdout.text(), "now\n");
  signalGroup(child);
});

Deno.test("signalGroup() ignores a child that is already gone", async () => {
  const child = sh("exit 0");
  await child.status;
  await Promise.all([child.stdout.cancel(), child.stderr.cancel()]);
  signalGroup(child, "SIGTERM");
  signalGroup(child);
});

Deno.test("spawnInGroup() throws when the program cannot start", () => {
  assert.throws(() =>
    spawnInGroup({ cmd: "/nonexistent/program", args: [], cwd: Deno.cwd(), env: {} })
  );
});
