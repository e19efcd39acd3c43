// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Per-command cost of the OS sandbox: `shell.run` of `true` with the workspace-write sandbox
 * (bwrap + seccomp) and without it, median of 30 runs each, interleaved.
 *
 *   deno run -A scripts/bench/sandbox_overhead.ts
 */
import { shellRun } from "../../lib/tools/shell_run.ts";
import type { ToolContext } from "../../lib/tools/capability.ts";
import { openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { median, ms, sample } from "./_measure.ts";

const RUNS = 30;

async function main(): Promise<number> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_sandbox_" }));
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [dir],
    networkAccess: false,
  });
  try {
    if (!sandbox.status.enforced) {
      console.error(`error: ${sandbox.status.problem?.message}`);
      return 1;
    }
    const ctx: ToolContext = {
      cwd: dir,
      signal: new AbortController().signal,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      state: new Map(),
      fs: inProcessFs,
    };
    const time = (c: ToolContext) => async () => {
      const started = performance.now();
      const out = await shellRun.run({ command: "true" }, c);
      if (out.exitCode !== 0) throw new Error(`"true" failed: ${out.output}`);
      return performance.now() - started;
    };
    const [bare, boxed] = await sample(RUNS, [time(ctx), time({ ...ctx, sandbox })]);
    const a = median(bare);
    const b = median(boxed);
    console.log(`sandbox: ${sandbox.status.description}`);
    console.log(`unsandboxed: median ${ms(a)} over ${RUNS} runs`);
    console.log(`sandboxed:   median ${ms(b)} over ${RUNS} runs`);
    console.log(`overhead:    ${ms(b - a)} per command, ratio ${(b / a).toFixed(2)}`);
    return 0;
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
