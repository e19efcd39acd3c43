import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { shellOutput, shellStart } from "./shell_background.ts";
import { shellMonitor } from "./shell_monitor.ts";
import { jobsWorkspace } from "./_test_jobs.ts";

Deno.test("shellMonitor() returns at the first line matching the pattern; the job keeps running", async () => {
  await using ws = await jobsWorkspace();
  const command =
    "echo compiling; echo 'warn: slow'; sleep 0.3; echo 'listening on 4321'; sleep 30";
  const out = await shellMonitor.run(
    { command, description: "server", pattern: "listening on \\d+", timeout_ms: 20_000 },
    ws.ctx,
  );
  assert.equal(out.matched, true);
  assert.equal(out.reason, "matched");
  assert.equal(out.line, "listening on 4321");
  assert.equal(out.lines, "compiling\nwarn: slow");
  assert.equal(out.status, "running");
  assert.equal(out.description, "server");
  // A second watch of the same job by id finds the line already written.
  const again = await shellMonitor.run({ id: out.id, pattern: "warn" }, ws.ctx);
  assert.equal(again.line, "warn: slow");
});

Deno.test("shellMonitor() without a pattern returns at the first non-empty line", async () => {
  await using ws = await jobsWorkspace();
  const out = await shellMonitor.run({ command: "echo; sleep 0.2; echo up; sleep 30" }, ws.ctx);
  assert.equal(out.line, "up");
  assert.equal(out.lines, "");
});

Deno.test("shellMonitor() times out on a job that prints nothing matching", async () => {
  await using ws = await jobsWorkspace();
  const { id } = await shellStart.run({ command: "echo booting; sleep 30" }, ws.ctx);
  const t0 = performance.now();
  const out = await shellMonitor.run({ id, pattern: "^ready$", timeout_ms: 400 }, ws.ctx);
  const took = performance.now() - t0;
  assert.ok(took >= 350 && took < 10_000, `waited ${took} ms`);
  assert.equal(out.matched, false);
  assert.equal(out.timedOut, true);
  assert.equal(out.reason, "timeout");
  assert.equal(out.lines, "booting");
  assert.equal(out.status, "running");
});

Deno.test("shellMonitor() reports a job that ends before any line matches", async () => {
  await using ws = await jobsWorkspace();
  const out = await shellMonitor.run(
    { command: "echo nope; exit 3", pattern: "yes", timeout_ms: 20_000 },
    ws.ctx,
  );
  assert.equal(out.reason, "ended");
  assert.equal(out.ended, true);
  assert.equal(out.exitCode, 3);
  assert.equal(out.lines, "nope");
});

Deno.test("shellMonitor() refuses a bad pattern, nothing to watch and an unknown pid", async () => {
  await using ws = await jobsWorkspace();
  await assert.rejects(
    () => shellMonitor.run({ command: "true", pattern: "(" }, ws.ctx),
    (e) => e instanceof ToolError && /not a valid regular expression/.test(e.message),
  );
  await assert.rejects(
    () => shellMonitor.run({}, ws.ctx),
    (e) => e instanceof ToolError && /Nothing to watch/.test(e.message),
  );
  await assert.rejects(
    () => shellMonitor.run({ pid: 999_999_999 }, ws.ctx),
    (e) => e instanceof ToolError && /No background process with PID/.test(e.message),
  );
});

Deno.test("shellOutput() gives the last tail_lines lines after waiting delay_ms", async () => {
  await using ws = await jobsWorkspace();
  const { pid } = await shellStart.run({ command: "sleep 0.2; seq 1 5; sleep 30" }, ws.ctx);
  const out = await shellOutput.run({ pid, tail_lines: 2, delay_ms: 1_500 }, ws.ctx);
  // delay_ms waits its whole length only for a job that keeps running; seq's lines are there.
  assert.equal(out.output, "4\n5\n");
  assert.equal(out.truncated, true);
  const all = await shellOutput.run({ pid, tail_lines: 10 }, ws.ctx);
  assert.equal(all.output, "1\n2\n3\n4\n5\n");
});
