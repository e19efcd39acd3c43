import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderResult, resolveCall } from "../lib/harness/call.ts";
import { loadHarness } from "../lib/harness/load.ts";
import type { Harness } from "../lib/harness/types.ts";
import type { ToolContext } from "../lib/tools/capability.ts";
import { JobRegistry, JOBS_RESOURCE } from "../lib/tools/shell_jobs.ts";
import { Resources } from "../lib/tools/resources.ts";
import { testScratch } from "../lib/tools/_test_workspace.ts";
import { inProcessFs } from "../sandbox/file_system.ts";

/** Background shell jobs through the kimi-code and deepseek-tui surfaces, with real processes. */

const HARNESSES = fileURLToPath(new URL("../harnesses/", import.meta.url));

/** A temp workspace and a tool context whose job registry is disposed before the folder goes. */
async function session() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_kimi_code_" }));
  const scratch = await testScratch();
  const jobs = new JobRegistry({ scratch, stopGraceMs: 200 });
  const ctx: ToolContext = {
    callId: "test_call",
    progress: () => {},
    cwd: dir,
    signal: new AbortController().signal,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir },
    state: new Map(),
    resources: new Resources(),
    fs: inProcessFs,
    scratch,
  };
  ctx.resources!.set(JOBS_RESOURCE, jobs);
  return {
    ctx,
    async [Symbol.asyncDispose]() {
      await jobs[Symbol.asyncDispose]();
      await scratch[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Resolves a wire call, runs its capability and renders the result as the model sees it. */
async function call(h: Harness, ctx: ToolContext, name: string, args: Record<string, unknown>) {
  const r = resolveCall(h, { name, args });
  const output = await r.capability.run(r.input, ctx);
  return { capability: r.capability.id, output, text: renderResult(r.tool, output) };
}

const BACKGROUND_START =
  /^Command running in background with ID: (\S+)\. Output is being written to: (\S+)\. /;

Deno.test("kimi-code: Bash run_in_background starts a job that TaskList, TaskOutput and TaskStop see", async () => {
  await using s = await session();
  const h = await loadHarness("kimi-code", { builtinDir: HARNESSES });
  const started = await call(h, s.ctx, "Bash", {
    command: "sleep 0.2; echo done",
    run_in_background: true,
    description: "nap",
    timeout: 5,
  });
  assert.equal(started.capability, "shell.start");
  const [, id, outputPath] = BACKGROUND_START.exec(started.text) ?? [];
  assert.ok(id, started.text);
  assert.match(outputPath, new RegExp(`${id}\\.output$`));

  const listed = await call(h, s.ctx, "TaskList", {});
  assert.equal(listed.capability, "shell.list");
  assert.match(
    listed.text,
    new RegExp(
      `^background_tasks: 1\ntask_id: ${id}\ndescription: nap\nstatus: running\n` +
        "detached: true\nkind: process\ncommand: sleep 0\\.2; echo done\npid: \\d+$",
    ),
  );

  const waited = await call(h, s.ctx, "TaskOutput", { task_id: id, block: true, timeout: 10 });
  assert.equal(
    waited.text,
    `<retrieval_status>complete</retrieval_status>\n\n<task_id>${id}</task_id>\n\n` +
      "<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<output>\ndone\n</output>",
  );
  assert.equal((await call(h, s.ctx, "TaskList", {})).text, "background_tasks: 0");

  const long = await call(h, s.ctx, "Bash", { command: "sleep 30", run_in_background: true });
  const [, longId] = BACKGROUND_START.exec(long.text) ?? [];
  const polled = await call(h, s.ctx, "TaskOutput", { task_id: longId });
  assert.match(polled.text, /<retrieval_status>not_ready<\/retrieval_status>/);
  assert.match(polled.text, /<status>running<\/status>/);
  const stopped = await call(h, s.ctx, "TaskStop", { task_id: longId, reason: "enough" });
  assert.equal(stopped.capability, "shell.stop");
  assert.deepEqual(JSON.parse(stopped.text), {
    message: `Successfully stopped task: ${longId} (sleep 30)`,
    task_id: longId,
    task_type: "local_bash",
    command: "sleep 30",
  });
  const after = await call(h, s.ctx, "TaskOutput", { task_id: longId });
  assert.match(after.text, /<status>completed<\/status>/);
  const all = await call(h, s.ctx, "TaskList", { active_only: false });
  assert.match(all.text, /^background_tasks: 2\n/);
});

Deno.test("kimi-code: Bash without run_in_background still runs in the foreground", async () => {
  await using s = await session();
  const h = await loadHarness("kimi-code", { builtinDir: HARNESSES });
  for (const run_in_background of [false, undefined]) {
    const ran = await call(h, s.ctx, "Bash", { command: "echo hi", run_in_background });
    assert.equal(ran.capability, "shell.run");
    assert.equal(ran.text, "hi\n");
  }
});

Deno.test("deepseek-tui: exec_shell background starts a job that task_shell_wait sees", async () => {
  await using s = await session();
  const h = await loadHarness("deepseek-tui", { builtinDir: HARNESSES });
  const started = await call(h, s.ctx, "exec_shell", {
    command: "sleep 0.2; echo done",
    background: true,
    timeout_ms: 1000,
  });
  assert.equal(started.capability, "shell.start");
  const [, id] = BACKGROUND_START.exec(started.text) ?? [];
  assert.ok(id, started.text);
  const waited = await call(h, s.ctx, "task_shell_wait", {
    task_id: id,
    wait: true,
    timeout_ms: 10_000,
  });
  assert.equal(waited.text, `task_id: ${id}\nstatus: completed\nexit_code: 0\n\ndone\n`);
  const fg = await call(h, s.ctx, "exec_shell", { command: "true", background: false });
  assert.equal(fg.capability, "shell.run");
  assert.equal(fg.text, "(no output)");
});
