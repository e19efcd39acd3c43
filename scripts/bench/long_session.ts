// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Peak RSS of `scripts/interpreter exec` over sessions of 1, 50 and 200 steps against the fake
 * provider, each step running a command that prints about 5 KB. Reports the median of
 * `--runs` (default 3) interleaved rounds, side by side with each length's growth over the
 * 1-step run. Target: 200 steps at most 40 MiB above 1 step.
 *
 *   deno run -A scripts/bench/long_session.ts [--runs N] [--assert]   (--assert: exit 1 when over)
 *
 * The peak is the interpreter process's VmHWM from /proc (Linux only), polled until it exits;
 * scripts/interpreter execs deno, so the pid spawned is the one measured.
 */
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { fakeProviderConfig, median, REPO } from "./_measure.ts";

const STEPS = [1, 50, 200];
const TARGET_MIB = 40;
const POLL_MS = 5;

/** N tool-calling turns whose command prints ~5 KB (distinct each step), then an answer. */
function script(steps: number) {
  const turns = Array.from({ length: steps }, (_, i) => ({
    reply: {
      tool_calls: [{ name: "exec_command", args: { cmd: `seq ${10_000 + i} ${10_850 + i}` } }],
    },
  }));
  return [...turns, { reply: { text: "done" } }];
}

/** The whole history stays: compaction would hide how memory grows with it. */
const NO_COMPACTION = ["model_context_window = 100000000"];

/** VmHWM of a live process in KiB, or undefined once it has exited (or is a zombie). */
async function peakKib(pid: number): Promise<number | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib);
  } catch {
    return undefined;
  }
}

interface Sample {
  peakMib: number;
  seconds: number;
}

/** One session of `steps` steps: the interpreter's peak RSS in MiB and its wall time. */
async function measureOnce(steps: number, dirs: { home: string; work: string }): Promise<Sample> {
  await using provider: FakeProvider = startFakeProvider(script(steps));
  await Deno.writeTextFile(
    `${dirs.home}/config.toml`,
    fakeProviderConfig(provider.baseUrl, NO_COMPACTION),
  );
  const started = performance.now();
  const child = new Deno.Command(`${REPO}/scripts/interpreter`, {
    args: ["exec", "--skip-git-repo-check", "run the steps"],
    cwd: dirs.work,
    env: { OPENINTERPRETER_HOME: dirs.home, FAKE_KEY: "fake-key", NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const output = child.output().finally(() => exited = true);
  let peak = 0;
  while (!exited) {
    peak = Math.max(peak, await peakKib(child.pid) ?? 0);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const out = await output;
  const seconds = (performance.now() - started) / 1000;
  if (!out.success || provider.failures.length > 0 || provider.remaining() > 0) {
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
    throw new Error(
      `"interpreter exec" (${steps} steps) exited with code ${out.code}, ` +
        `${provider.remaining()} turns left, failures ${
          JSON.stringify(provider.failures)
        }: ${stderr}`,
    );
  }
  if (peak === 0) throw new Error("Could not read VmHWM from /proc");
  return { peakMib: peak / 1024, seconds };
}

function parseArgs(args: string[]): { runs: number; assert: boolean } | string {
  let runs = 3;
  let assert = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--assert") assert = true;
    else if (args[i] === "--runs" && /^[1-9]\d*$/.test(args[i + 1] ?? "")) runs = Number(args[++i]);
    else return args[i];
  }
  return { runs, assert };
}

async function main(args: string[]): Promise<number> {
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    console.error(`error: Unknown argument "${opts}"`);
    console.error("hint: the options are --runs N and --assert");
    return 2;
  }
  if (Deno.build.os !== "linux") {
    console.error("error: This benchmark reads /proc/<pid>/status, which only Linux has");
    return 2;
  }
  const home = await Deno.makeTempDir({ prefix: "bench_home_" });
  const work = await Deno.makeTempDir({ prefix: "bench_work_" });
  try {
    const samples: Sample[][] = STEPS.map(() => []);
    for (let run = 0; run < opts.runs; run++) {
      for (const [i, steps] of STEPS.entries()) {
        samples[i].push(await measureOnce(steps, { home, work }));
      }
    }
    const peaks = samples.map((row) => row.map((s) => s.peakMib));
    const medians = peaks.map(median);
    console.log(`peak RSS of "interpreter exec", median of ${opts.runs} runs (~5 KB output/step)`);
    for (const [i, steps] of STEPS.entries()) {
      const delta = medians[i] - medians[0];
      const all = peaks[i].map((p) => p.toFixed(1)).join(", ");
      const seconds = median(samples[i].map((s) => s.seconds));
      console.log(
        `${String(steps).padStart(4)} steps: ${medians[i].toFixed(1).padStart(6)} MiB` +
          `  (+${delta.toFixed(1).padStart(5)} MiB over 1 step)  ${seconds.toFixed(2)} s` +
          `  runs: ${all}`,
      );
    }
    const growth = medians.at(-1)! - medians[0];
    console.log(`target: ${STEPS.at(-1)} steps at most +${TARGET_MIB} MiB over 1 step`);
    return opts.assert && growth > TARGET_MIB ? 1 : 0;
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
