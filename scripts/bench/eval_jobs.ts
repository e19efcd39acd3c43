// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Wall time of one `interpreter eval` job (the habit tracker, native × 3 repetitions against the
 * scripted provider's fixer) at `--jobs 1` and at `--jobs 2`, side by side with their ratio.
 * Target: `--jobs 2` takes at most 0.8× the time of `--jobs 1` on two cores. Quick mode
 * (BENCH_QUICK=1 or --quick): 2 repetitions unless --repeat says.
 *
 *   deno run -A --config deno.json scripts/bench/eval_jobs.ts [--quick] [--repeat N] [--assert]
 */
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { loadScript } from "../../tests/fake_provider/script.ts";
import { fakeHome, fixtureRepo } from "../../tests/e2e/_harness_env.ts";
import { EVAL_HARNESS_TOOLS } from "../../tests/e2e/_eval_env.ts";
import { benchLine, isQuick, REPO } from "./_measure.ts";

const TARGET_RATIO = 0.8;
const repeat = Number(Deno.args[Deno.args.indexOf("--repeat") + 1]) || (isQuick() ? 2 : 4);

async function timeJob(jobs: number): Promise<number> {
  const script = await loadScript(
    join(REPO, "tests", "fixtures", "scripts", "eval", "fixer_native.jsonl"),
  );
  await using fake = startFakeProvider([], {
    routes: [{ model: "fake-model", tools_include: EVAL_HARNESS_TOOLS.native, script }],
  });
  const repo = await fixtureRepo("habits");
  const home = await fakeHome(fake.baseUrl, "chat");
  try {
    const start = performance.now();
    const out = await new Deno.Command(join(REPO, "scripts", "interpreter"), {
      args: [
        "eval",
        ...["--harness", "native", "--repeat", String(repeat), "--jobs", String(jobs)],
        ...["--check", "python3 -m pytest -q -p no:cacheprovider", "--out", join(home, "job")],
        "fix the failing test",
      ],
      cwd: repo,
      env: { OPENINTERPRETER_HOME: home, FAKE_API_KEY: "k", NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - start;
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return elapsed / 1000;
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
}

const one = await timeJob(1);
const two = await timeJob(2);
const ratio = two / one;
console.log(
  `eval of ${repeat} runs   --jobs 1: ${one.toFixed(1)} s   --jobs 2: ${two.toFixed(1)} s`,
);
console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
console.log(benchLine(`eval ${repeat} runs, --jobs 2 / --jobs 1`, ratio, TARGET_RATIO));
if (Deno.args.includes("--assert") && ratio > TARGET_RATIO) Deno.exit(1);
