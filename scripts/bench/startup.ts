// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Start of `scripts/interpreter --version` as a ratio to `deno run` of a one-line script with the
 * same Deno, config and flags, interleaved rounds, medians. Target: at most 1.2 times (issue 30).
 *
 *   deno run -A scripts/bench/startup.ts [--quick] [--assert]     (--assert: exit 1 on MISS)
 */
import {
  benchLine,
  benchRuns,
  denoRunArgs,
  launcherDeno,
  ms,
  REPO,
  sampleMedians,
  timeProcess,
} from "./_measure.ts";

const RUNS = benchRuns();
const TARGET_RATIO = 1.2;

async function main(args: string[]): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "bench_startup_" });
  try {
    await Deno.writeTextFile(`${dir}/one_line.ts`, 'console.log("0.0.0");\n');
    const baselineArgs = denoRunArgs([`${dir}/one_line.ts`]);
    // As scripts/interpreter does for itself, so that both sides skip the update check.
    Deno.env.set("DENO_NO_UPDATE_CHECK", "1");
    const [cli, baseline] = await sampleMedians([
      () => timeProcess(`${REPO}/scripts/interpreter`, ["--version"]),
      () => timeProcess(launcherDeno(), baselineArgs),
    ]);
    const ratio = cli / baseline;
    console.log(`scripts/interpreter --version  ${ms(cli)}  (median of ${RUNS})`);
    console.log(`deno run one-line script       ${ms(baseline)}  (median of ${RUNS})`);
    console.log(benchLine("--version vs one-liner", ratio, TARGET_RATIO));
    return args.includes("--assert") && ratio > TARGET_RATIO ? 1 : 0;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
