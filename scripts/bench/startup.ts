// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Cold start of `scripts/interpreter --version`, median of 10 runs, next to `deno run` of a
 * one-line script with the same flags. Target: at most 1.5 times the baseline.
 *
 *   deno run -A scripts/bench/startup.ts [--assert]     (--assert: exit 1 when over target)
 */
import { DENO_PERMISSION_FLAGS } from "../../sandbox/deno_flags.ts";
import { launcherDeno, median, ms, REPO, sample, timeProcess } from "./_measure.ts";

const RUNS = 10;
const TARGET_RATIO = 1.5;

async function main(args: string[]): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "bench_startup_" });
  try {
    await Deno.writeTextFile(`${dir}/one_line.ts`, 'console.log("0.0.0");\n');
    const baselineArgs = [
      "run",
      "--quiet",
      "--config",
      `${REPO}/deno.json`,
      ...DENO_PERMISSION_FLAGS,
      `${dir}/one_line.ts`,
    ];
    const [cli, baseline] = (await sample(RUNS, [
      () => timeProcess(`${REPO}/scripts/interpreter`, ["--version"]),
      () => timeProcess(launcherDeno(), baselineArgs),
    ])).map(median);
    const ratio = cli / baseline;
    const verdict = ratio <= TARGET_RATIO ? "ok" : "OVER TARGET";
    console.log(`scripts/interpreter --version  ${ms(cli)}  (median of ${RUNS})`);
    console.log(`deno run one-line script       ${ms(baseline)}  (median of ${RUNS})`);
    console.log(`ratio ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x): ${verdict}`);
    return args.includes("--assert") && ratio > TARGET_RATIO ? 1 : 0;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
