import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { ToolError } from "../errors.ts";
import { OUTPUT_KEEP_BYTES } from "./shell_run.ts";
import { JobRegistry, jobRegistryOf, JOBS_RESOURCE } from "./shell_jobs.ts";
import { tempWorkspace } from "./_test_workspace.ts";
import { processAlive } from "./_test_process.ts";
import { until } from "../../tests/e2e/_poll.ts";

const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

/** A JobRegistry.start() spec running `command` with bash in `cwd`. */
function bash(command: string, cwd: string) {
  return { spawn: { cmd: "bash", args: ["-c", command], env }, command, cwd };
}
const never = new AbortController().signal;

Deno.test("JobRegistry.start() copies combined output into the job's file", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  const job = await jobs.start(bash("echo out; echo err >&2; exit 3", ws.dir));
  assert.equal(job.status, "running");
  assert.equal(basename(job.outputPath), `${job.id}.output`);
  assert.ok(!job.outputPath.startsWith(ws.dir), "job output stays out of the workspace");
  const done = await jobs.wait(job.id, 10_000, never);
  assert.equal(done.status, "completed");
  assert.equal(done.exitCode, 3);
  assert.equal(done.signal, null);
  const text = await Deno.readTextFile(job.outputPath);
  assert.equal(text.split("\n").sort().join("\n"), "\nerr\nout");
  assert.deepEqual(await jobs.output(job.id), { text, truncated: false });
});

Deno.test("JobRegistry.wait() returns a running job when the timeout passes first", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  const job = await jobs.start(bash("echo early; sleep 30", ws.dir));
  const t0 = performance.now();
  const seen = await jobs.wait(job.id, 150, never);
  assert.ok(performance.now() - t0 < 5000);
  assert.equal(seen.status, "running");
  assert.equal(seen.exitCode, null);
});

Deno.test("JobRegistry.wait() rejects with the abort reason", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  const job = await jobs.start(bash("sleep 30", ws.dir));
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error("stop waiting")), 100);
  await assert.rejects(() => jobs.wait(job.id, 20_000, ac.signal), /stop waiting/);
});

Deno.test({
  name: "JobRegistry.stop() ends a job with SIGTERM",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using ws = await tempWorkspace();
    await using jobs = new JobRegistry({ scratch: ws.ctx.scratch!, stopGraceMs: 10_000 });
    const job = await jobs.start(bash("sleep 30", ws.dir));
    const t0 = performance.now();
    const stopped = await jobs.stop(job.id);
    assert.ok(performance.now() - t0 < 5000);
    assert.equal(stopped.signal, "SIGTERM");
    assert.equal(stopped.exitCode, null);
  },
});

Deno.test({
  name: "JobRegistry.stop() kills the whole process group when SIGTERM is ignored",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using ws = await tempWorkspace();
    await using jobs = new JobRegistry({ scratch: ws.ctx.scratch!, stopGraceMs: 200 });
    const pidFile = join(ws.dir, "child.pid");
    const cmd = `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`;
    const job = await jobs.start(bash(cmd, ws.dir));
    const childPid = await waitForPid(pidFile);
    const t0 = performance.now();
    const stopped = await jobs.stop(job.id);
    assert.ok(performance.now() - t0 < 5000);
    assert.equal(stopped.wasRunning, true);
    assert.equal(stopped.status, "completed");
    assert.equal(stopped.signal, "SIGKILL");
    await until("the job to exit", async () => !(await processAlive(job.pid)), 5_000);
    await until("the job's child to exit", async () => !(await processAlive(childPid)), 5_000);
    const again = await jobs.stop(job.id);
    assert.equal(again.wasRunning, false);
  },
});

Deno.test("JobRegistry throws ToolError for an unknown id", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  assert.throws(
    () => jobs.get("nope"),
    (err) => err instanceof ToolError && err.message === "Unknown task id nope",
  );
  await assert.rejects(() => jobs.stop("nope"), /Unknown task id nope/);
});

Deno.test("JobRegistry.start() throws ToolError when the program cannot start", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  const spawn = { cmd: "/no/such/shell", args: [], env };
  await assert.rejects(
    () => jobs.start({ spawn, command: "x", cwd: ws.dir }),
    (err) => err instanceof ToolError && /Cannot start background command/.test(err.message),
  );
  assert.deepEqual(jobs.list(), []);
});

Deno.test("JobRegistry.output() keeps head and tail of a long output", async () => {
  await using ws = await tempWorkspace();
  await using jobs = new JobRegistry({ scratch: ws.ctx.scratch! });
  const n = OUTPUT_KEEP_BYTES;
  const cmd = `head -c ${n} /dev/zero | tr '\\0' A; head -c ${n} /dev/zero | tr '\\0' M;` +
    ` head -c ${n} /dev/zero | tr '\\0' Z`;
  const job = await jobs.start(bash(cmd, ws.dir));
  await jobs.wait(job.id, 10_000, never);
  const out = await jobs.output(job.id);
  assert.equal(out.truncated, true);
  assert.ok(out.text.startsWith("A".repeat(n) + "\n[… "));
  assert.ok(out.text.endsWith("]\n" + "Z".repeat(n)));
  assert.ok(!out.text.includes("M"));
});

Deno.test({
  name: "JobRegistry disposal kills running jobs and removes its own folder",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using ws = await tempWorkspace();
    const jobs = jobRegistryOf(ws.ctx);
    assert.equal(ws.ctx.resources.get(JOBS_RESOURCE), jobs);
    assert.equal(ws.ctx.state.size, 0, "jobs are not session data");
    assert.equal(jobRegistryOf(ws.ctx), jobs);
    const job = await jobs.start(bash("sleep 30", ws.dir));
    const dir = join(job.outputPath, "..");
    assert.ok((await Deno.stat(dir)).isDirectory);
    await jobs[Symbol.asyncDispose]();
    await until("the job to exit", async () => !(await processAlive(job.pid)), 5_000);
    await assert.rejects(() => Deno.stat(dir), Deno.errors.NotFound);
    await assert.rejects(() => jobs.start(bash("true", ws.dir)), TypeError);
  },
});

async function waitForPid(path: string): Promise<number> {
  let text = "";
  await until(`a pid in ${path}`, async () => {
    text = await Deno.readTextFile(path).catch(() => "");
    return text.trim() !== "";
  }, 2_000);
  return Number(text);
}
