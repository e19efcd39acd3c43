// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Start time of the file-tool helper (spawn to first answer, median of 10) and the round trip
 * of a small read (mean of 2000 sequential calls), under bwrap, with Deno permissions only,
 * and in process for comparison. Target: a round trip under bwrap at most 1.3x one with Deno
 * permissions only (the sandbox's share, as for commands). Quick mode (BENCH_QUICK=1 or
 * --quick): 5 starts, 500 calls.
 *
 *   deno run -A scripts/bench/fs_helper.ts [--quick]
 */
import { join } from "node:path";
import { DEFAULT_PROTECTED_NAMES, type SandboxPolicy } from "../../sandbox/bwrap_args.ts";
import { type FileSystem, inProcessFs } from "../../sandbox/file_system.ts";
import { startFsHelper } from "../../sandbox/fs_helper_client.ts";
import { probeBubblewrap } from "../../sandbox/probe.ts";
import { benchLine, isQuick, median, ms } from "./_measure.ts";

const STARTS = isQuick() ? 5 : 10;
const TRIPS = isQuick() ? 500 : 2000;
const TARGET_RATIO = 1.3;

async function roundTripUs(fs: FileSystem, path: string): Promise<number> {
  for (let i = 0; i < 100; i++) await fs.readFile(path);
  const start = performance.now();
  for (let i = 0; i < TRIPS; i++) await fs.readFile(path);
  return (performance.now() - start) * 1000 / TRIPS;
}

async function measure(
  label: string,
  policy: SandboxPolicy,
  file: string,
  bwrap?: string,
): Promise<number> {
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    await using _fs = await startFsHelper({ policy, bwrap });
    starts.push(performance.now() - t0);
  }
  await using fs = await startFsHelper({ policy, bwrap });
  const us = await roundTripUs(fs, file);
  console.log(`${label.padEnd(24)} start ${ms(median(starts))}   round trip ${us.toFixed(0)} µs`);
  return us;
}

async function main(): Promise<void> {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_fs_helper_" }));
  try {
    const file = join(ws, "small.txt");
    await Deno.writeTextFile(file, "x".repeat(100));
    const policy: SandboxPolicy = {
      mode: "workspace-write",
      writableRoots: [ws],
      protectedNames: [...DEFAULT_PROTECTED_NAMES],
      networkAccess: false,
      privateTmp: true,
    };
    const probe = await probeBubblewrap();
    const sandboxed = probe.ok
      ? await measure("helper under bwrap", policy, file, probe.bwrap)
      : undefined;
    if (!probe.ok) console.log(`helper under bwrap     skipped: ${probe.failure.message}`);
    const flagsOnly = await measure("helper, Deno flags only", policy, file);
    const us = await roundTripUs(inProcessFs, file);
    console.log(`${"in process".padEnd(24)} start ${ms(0)}   round trip ${us.toFixed(0)} µs`);
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    if (sandboxed !== undefined) {
      console.log(
        benchLine(
          "file helper round trip, bwrap / Deno flags only",
          sandboxed / flagsOnly,
          TARGET_RATIO,
        ),
      );
    }
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
}

if (import.meta.main) await main();
