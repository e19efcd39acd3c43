import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../errors.ts";
import { shellList, shellOutput, shellStart, shellStop } from "./shell_background.ts";
import { jobsWorkspace } from "./_test_jobs.ts";
import { processOnlyVariable } from "./_test_process.ts";
import {
  type CommandRequest,
  type CommandSandbox,
  SandboxRefusal,
} from "../../sandbox/command_sandbox.ts";

Deno.test("shellStart() runs in the background and shellOutput() waits for it", async () => {
  await using ws = await jobsWorkspace({ "sub/marker.txt": "m" });
  ws.ctx.env.OI_MARK = "marked";
  delete ws.ctx.env.HOME;
  const name = processOnlyVariable(ws.ctx.env);
  // The command waits (10 s at most) until the test has seen it running.
  const gate = join(ws.dir, "go");
  const cmd = `for i in $(seq 1000); do [ -e '${gate}' ] && break; sleep 0.01; done; ` +
    `pwd; ls; echo "$OI_MARK"; printenv ${name} || echo unset; exit 4`;
  const started = await shellStart.run({ command: cmd, cwd: "sub", description: "demo" }, ws.ctx);
  assert.equal(started.cwd, "sub");
  assert.equal(started.description, "demo");
  assert.match(started.outputPath, new RegExp(`${started.id}\\.output$`));
  const early = await shellOutput.run({ id: started.id }, ws.ctx);
  assert.equal(early.status, "running");
  assert.equal(early.retrieval, "not_ready");
  assert.equal(early.exitCode, null);
  await Deno.writeTextFile(gate, "");
  const done = await shellOutput.run({ id: started.id, block: true, timeout_s: 30 }, ws.ctx);
  assert.equal(done.status, "completed");
  assert.equal(done.retrieval, "complete");
  assert.equal(done.exitCode, 4);
  assert.equal(done.output, `${join(ws.dir, "sub")}\nmarker.txt\nmarked\nunset\n`);
  assert.equal(await Deno.readTextFile(started.outputPath), done.output);
});

Deno.test("shellOutput() gives up blocking after timeout_ms with partial output", async () => {
  await using ws = await jobsWorkspace();
  const { id } = await shellStart.run({ command: "echo first; sleep 30" }, ws.ctx);
  const t0 = performance.now();
  const out = await shellOutput.run({ id, block: true, timeout_ms: 300 }, ws.ctx);
  const took = performance.now() - t0;
  assert.ok(took >= 250 && took < 5000, `waited ${took} ms`);
  assert.equal(out.status, "running");
  assert.equal(out.retrieval, "not_ready");
  assert.equal(out.output, "first\n");
});

Deno.test("shellStop() stops a running job and shellList() reflects it", async () => {
  await using ws = await jobsWorkspace();
  const a = await shellStart.run({ command: "sleep 30", description: "sleeper" }, ws.ctx);
  const b = await shellStart.run({ command: "sleep 31" }, ws.ctx);
  const listed = await shellList.run({}, ws.ctx);
  assert.equal(listed.count, 2);
  assert.deepEqual(listed.jobs.map((j) => j.id), [b.id, a.id]);
  assert.equal(listed.jobs[1].description, "sleeper");
  assert.equal(listed.jobs[1].status, "running");
  const stopped = await shellStop.run({ id: a.id }, ws.ctx);
  assert.deepEqual(
    { id: stopped.id, command: stopped.command, stopped: stopped.stopped },
    { id: a.id, command: "sleep 30", stopped: true },
  );
  assert.equal(stopped.wasRunning, true);
  const active = await shellList.run({}, ws.ctx);
  assert.deepEqual(active.jobs.map((j) => j.id), [b.id]);
  const all = await shellList.run({ active_only: false, limit: 1 }, ws.ctx);
  assert.deepEqual(all.jobs.map((j) => j.id), [b.id]);
  const after = await shellOutput.run({ id: a.id }, ws.ctx);
  assert.equal(after.status, "completed");
});

Deno.test("shellStop() and shellOutput() throw ToolError for an unknown id", async () => {
  await using ws = await jobsWorkspace();
  await assert.rejects(
    () => shellStop.run({ id: "nope" }, ws.ctx),
    (err) => err instanceof ToolError && err.message === "Unknown task id nope",
  );
  await assert.rejects(
    () => shellOutput.run({ id: "nope", block: true }, ws.ctx),
    (err) => err instanceof ToolError && err.message === "Unknown task id nope",
  );
});

Deno.test("shellStart() throws ToolError when the working directory does not exist", async () => {
  await using ws = await jobsWorkspace({ "f.txt": "" });
  await assert.rejects(
    () => shellStart.run({ command: "true", cwd: "missing" }, ws.ctx),
    (err) => err instanceof ToolError && /"missing" does not exist/.test(err.message),
  );
  await assert.rejects(
    () => shellStart.run({ command: "true", cwd: "f.txt" }, ws.ctx),
    (err) => err instanceof ToolError && /"f.txt" is not a directory/.test(err.message),
  );
});

Deno.test("shellOutput input accepts the wait in milliseconds or seconds", () => {
  assert.equal(shellOutput.input.safeParse({ id: "x", timeout_s: 3600 }).success, true);
  assert.equal(shellOutput.input.safeParse({ id: "x", timeout_s: 3601 }).success, false);
  assert.equal(shellOutput.input.safeParse({ id: "x", timeout_ms: -1 }).success, false);
  assert.equal(shellList.input.safeParse({ limit: 101 }).success, false);
});

/** A sandbox seam that runs the command as is, with a marker in its environment. */
function markingSandbox(seen: CommandRequest[]): CommandSandbox {
  return {
    status: { mode: "workspace-write", kind: "none", enforced: false, description: "test" },
    wrap(req) {
      seen.push(req);
      return { cmd: req.argv[0], args: req.argv.slice(1), env: { ...req.env, OI_WRAPPED: "yes" } };
    },
    close: () => Promise.resolve(),
  };
}

Deno.test("shellStart() spawns through ctx.sandbox when the session has one", async () => {
  await using ws = await jobsWorkspace();
  const seen: CommandRequest[] = [];
  ws.ctx.sandbox = markingSandbox(seen);
  const { id } = await shellStart.run({ command: 'echo "$OI_WRAPPED"' }, ws.ctx);
  const out = await shellOutput.run({ id, block: true }, ws.ctx);
  assert.equal(out.output, "yes\n");
  assert.deepEqual(seen.map((r) => [r.argv, r.cwd, r.escalated]), [
    [["bash", "-c", 'echo "$OI_WRAPPED"'], ws.dir, false],
  ]);
});

Deno.test("shellStart() turns a sandbox refusal into a ToolError with its hint", async () => {
  await using ws = await jobsWorkspace();
  ws.ctx.sandbox = {
    ...markingSandbox([]),
    wrap() {
      throw new SandboxRefusal("Cannot run the command: no sandbox", "Approve it");
    },
  };
  await assert.rejects(
    () => shellStart.run({ command: "true" }, ws.ctx),
    (err) =>
      err instanceof ToolError && /no sandbox/.test(err.message) && err.hint === "Approve it",
  );
  assert.equal((await shellList.run({ active_only: false }, ws.ctx)).count, 0);
});
