// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Per-command cost of the OS sandbox: the round trip of the real `shell.run` capability running
 * `true` with the workspace-write sandbox (bwrap + seccomp, network off) and without it, medians
 * of interleaved runs, each row beside its ratio to the unsandboxed one. The workspace holds a
 * `.git`, so the two other protected names get placeholders, as in most real sessions.
 *
 * Sandboxed rows: the session's way, in a sandbox prepared while the previous command's result
 * went back (each run first waits for it, as a model turn would); back to back, three commands
 * straight after another (their mean), which wait for their sandboxes to be prepared; and in a
 * sandbox made for the command, as background jobs and the other tools get theirs. Every run waits for the
 * session's sandbox preparation to finish first, so that none is timed with it running beside.
 *
 * The rows below split the cost: a bare spawn of the same `/bin/sh -c true`, bubblewrap with
 * nothing but a user namespace and a read-only root, the session's bwrap recipe spawned
 * directly (no launcher shell, seccomp filter or run record), and what `wrap()` returns, spawned.
 * The `bench:` lines give the prepared rows' ratios (target 1.3); scripts/bench/sandbox_round_trip.ts
 * measures the same in a whole session.
 *
 *   deno run -A scripts/bench/sandbox_overhead.ts [runs]
 */
import { join } from "node:path";
import { shellRun } from "../../lib/tools/shell_run.ts";
import type { ToolContext } from "../../lib/tools/capability.ts";
import { bwrapArgs, DEFAULT_PROTECTED_NAMES } from "../../sandbox/bwrap_args.ts";
import { type CommandSandbox, openCommandSandbox } from "../../sandbox/command_sandbox.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { probeBubblewrap } from "../../sandbox/probe.ts";
import { median, ms, sample } from "./_measure.ts";

const RUNS = Number(Deno.args[0] ?? 40);
const TRUE = ["/bin/sh", "-c", "true"];
const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

async function main(): Promise<number> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_sandbox_" }));
  await Deno.mkdir(join(dir, ".git"));
  const sandbox = await openCommandSandbox({
    mode: "workspace-write",
    writableRoots: [dir],
    networkAccess: false,
  });
  try {
    const probe = await probeBubblewrap();
    if (!sandbox.status.enforced || !probe.ok) {
      console.error(`error: ${sandbox.status.problem?.message ?? "bubblewrap does not work"}`);
      return 1;
    }
    const ctx: ToolContext = {
      cwd: dir,
      signal: new AbortController().signal,
      env: ENV,
      state: new Map(),
      fs: inProcessFs,
      callId: "bench",
      progress: () => {},
    };
    const direct = await recipe(dir, probe);
    const boxed = { ...ctx, sandbox };
    const made = { ...ctx, sandbox: { ...sandbox, spawn: undefined } };
    const settled = (measure: () => Promise<number>) => async () => {
      await sandbox.prepared?.();
      return await measure();
    };
    const rows: [string, () => Promise<number>][] = [
      ["shell.run unsandboxed", shellRunTrue(ctx)],
      ["shell.run sandboxed", shellRunTrue(boxed)],
      ["  back to back", backToBack(boxed)],
      ["  made for the command", shellRunTrue(made)],
      ["spawn /bin/sh -c true", () => timeSpawn(TRUE[0], TRUE.slice(1))],
      ["bwrap: userns + ro /", () => timeSpawn(probe.bwrap, minimalBwrap())],
      ["bwrap: session recipe", () => timeSpawn(probe.bwrap, direct)],
      ["wrap() + spawn", () => timeWrapped(sandbox, dir)],
    ];
    console.log(`load: ${await loadavg()}`);
    const times = await sample(RUNS, rows.map(([, measure]) => settled(measure)));
    const medians = times.map(median);
    const [bare, prepared, burst, perCommand] = medians;
    console.log(`sandbox: ${sandbox.status.description}`);
    console.log(`medians of ${RUNS} interleaved runs; ratio to shell.run unsandboxed`);
    rows.forEach(([name], i) =>
      console.log(`  ${name.padEnd(24)}${ms(medians[i])}   ${(medians[i] / bare).toFixed(2)}`)
    );
    console.log(`load: ${await loadavg()}`);
    console.log(`made for the command: ${(perCommand / bare).toFixed(2)}x shell.run unsandboxed`);
    benchLine("sandboxed shell.run, single", prepared / bare);
    benchLine("sandboxed shell.run, back to back", burst / bare);
    return 0;
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const TARGET = 1.3;

function benchLine(name: string, ratio: number): void {
  const verdict = ratio <= TARGET ? "ok" : "MISS";
  console.log(`bench: ${name} ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${verdict}`);
}

async function loadavg(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg").catch(() => "unknown")).trim();
}

function shellRunTrue(ctx: ToolContext): () => Promise<number> {
  return async () => {
    const started = performance.now();
    const out = await shellRun.run({ command: "true" }, ctx);
    if (out.exitCode !== 0) throw new Error(`"true" failed: ${out.output}`);
    return performance.now() - started;
  };
}

/** The mean round trip of three commands that follow another at once, as parallel calls do. */
function backToBack(ctx: ToolContext): () => Promise<number> {
  const run = shellRunTrue(ctx);
  return async () => {
    await run();
    return ((await run()) + (await run()) + (await run())) / 3;
  };
}

function minimalBwrap(): string[] {
  return ["--ro-bind", "/", "/", "--unshare-user", "--", ...TRUE];
}

/** The session's bwrap argv with real folders standing in for every protected path. */
async function recipe(dir: string, probe: { supportsDisableUserns: boolean }): Promise<string[]> {
  const standIns = DEFAULT_PROTECTED_NAMES.map((name, i) =>
    join(dir, i ? `stand-in${name}` : name)
  );
  for (const path of standIns) await Deno.mkdir(path, { recursive: true });
  const policy = {
    mode: "workspace-write" as const,
    writableRoots: [dir],
    protectedNames: [...DEFAULT_PROTECTED_NAMES],
    networkAccess: false,
    privateTmp: true,
  };
  return bwrapArgs(policy, {
    command: TRUE,
    cwd: dir,
    existingProtectedPaths: standIns,
    disableUserns: probe.supportsDisableUserns,
  });
}

async function timeWrapped(sandbox: CommandSandbox, dir: string): Promise<number> {
  const started = performance.now();
  const spec = await sandbox.wrap({ argv: TRUE, cwd: dir, env: ENV });
  await spawnOk(spec.cmd, spec.args, spec.env);
  return performance.now() - started;
}

async function timeSpawn(cmd: string, args: string[]): Promise<number> {
  const started = performance.now();
  await spawnOk(cmd, args, ENV);
  return performance.now() - started;
}

async function spawnOk(cmd: string, args: string[], env: Record<string, string>): Promise<void> {
  const out = await new Deno.Command(cmd, {
    args,
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`"${cmd}" exited with ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

if (import.meta.main) Deno.exit(await main());
