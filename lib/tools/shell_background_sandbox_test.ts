/**
 * A background job's output file, under the real bubblewrap sandbox with its private /tmp: the
 * path reported to the model is one a sandboxed `cat` can read, wherever the scratch folder is.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolContext } from "./capability.ts";
import { shellOutput, shellStart } from "./shell_background.ts";
import { shellRun } from "./shell_run.ts";
import { JobRegistry, JOBS_RESOURCE } from "./shell_jobs.ts";
import { Resources } from "./resources.ts";
import { bwrapTest } from "./_test_sandbox.ts";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { SessionScratch } from "../../sandbox/scratch_space.ts";

async function sandboxedSession(scratchParent: string) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_bg_" }));
  const base = await Deno.realPath(
    await Deno.makeTempDir({ dir: scratchParent, prefix: "oi_bg_" }),
  );
  const run = join(base, "run");
  await Deno.mkdir(run);
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [root],
    networkAccess: false,
    readablePaths: [run],
  });
  const scratch = new SessionScratch(run);
  const jobs = new JobRegistry({ scratch, stopGraceMs: 200 });
  const ctx: ToolContext = {
    callId: "test_call",
    progress: () => {},
    cwd: root,
    signal: new AbortController().signal,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: root },
    state: new Map(),
    resources: new Resources(),
    sandbox,
    fs: inProcessFs,
    scratch,
  };
  ctx.resources!.set(JOBS_RESOURCE, jobs);
  return {
    ctx,
    async [Symbol.asyncDispose]() {
      await jobs[Symbol.asyncDispose]();
      await scratch[Symbol.asyncDispose]();
      await sandbox.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(base, { recursive: true });
    },
  };
}

for (const parent of ["/tmp", "/var/tmp"]) {
  bwrapTest(
    `a sandboxed cat reads a sandboxed job's output file (scratch under ${parent})`,
    async () => {
      await using s = await sandboxedSession(parent);
      assert.ok(s.ctx.sandbox?.status.enforced, "commands really run under bwrap");
      const job = await shellStart.run({ command: "echo from-the-job" }, s.ctx);
      const done = await shellOutput.run({ id: job.id, block: true, timeout_ms: 20_000 }, s.ctx);
      assert.equal(done.output, "from-the-job\n");
      const cat = await shellRun.run({ command: `cat '${job.outputPath}'` }, s.ctx);
      assert.equal(cat.output, "from-the-job\n", JSON.stringify(cat));
      assert.equal(cat.exitCode, 0);
      const hostTmp = await Deno.makeTempDir({ prefix: "oi_bg_host_" });
      try {
        await Deno.writeTextFile(join(hostTmp, "f"), "host");
        const hidden = await shellRun.run({ command: `cat '${hostTmp}/f'` }, s.ctx);
        assert.notEqual(hidden.exitCode, 0, "control: the host's /tmp is hidden from commands");
      } finally {
        await Deno.remove(hostTmp, { recursive: true });
      }
    },
  );
}
