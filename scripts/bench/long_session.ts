// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Peak RSS of `scripts/interpreter exec` over sessions of 1, 200 and 2,000 steps against the fake
 * provider, each step running a command that prints about 5 KB, with a compaction every
 * 50 steps (the replies report usage past `model_auto_compact_token_limit`, and the next
 * request, the summary, gets a text). Reports the median of `--runs` (default 2) interleaved
 * rounds, side by side with each length's growth over the 1-step run. Targets: 2,000 steps at
 * most +40 MiB over 1 step (an absolute limit, not a ratio), and a flat cost per step: in the
 * longest session, the median time from one model request to the next over its last tenth at
 * most 1.25x the one over its first tenth. Quick mode (BENCH_QUICK=1 or --quick): 1, 100 and 500 steps, one round.
 *
 *   deno run -A scripts/bench/long_session.ts [--quick] [--runs N] [--assert]
 *   (--assert: exit 1 when a target is missed)
 *
 * The peak is the interpreter process's VmHWM from /proc (Linux only), polled until it exits;
 * scripts/interpreter execs deno, so the pid spawned is the one measured.
 */
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { benchLine, fakeProviderConfig, isQuick, median, REPO, spawnWatched } from "./_measure.ts";

const STEPS = isQuick() ? [1, 100, 500] : [1, 200, 2000];
const TARGET_MIB = 40;
const TARGET_STEP_RATIO = 1.25;
const COMPACT_EVERY = 50;
const POLL_MS = 5;

/**
 * N tool-calling turns whose command prints ~5 KB (distinct each step), then an answer. Every
 * COMPACT_EVERY-th reply reports usage over the compaction limit, so the next request is the
 * summary, answered with a text.
 */
function script(steps: number) {
  const turns = [];
  for (let i = 0; i < steps; i++) {
    const full = (i + 1) % COMPACT_EVERY === 0;
    turns.push({
      reply: {
        tool_calls: [{ name: "exec_command", args: { cmd: `seq ${10_000 + i} ${10_850 + i}` } }],
        usage: { input_tokens: full ? 90_000 : 1_000 + (i % COMPACT_EVERY) * 1_000 },
      },
    });
    if (full) {
      turns.push({ reply: { text: `Summary ${i}: the steps so far ran seq.` } });
    }
  }
  return [...turns, { reply: { text: "done" } }];
}

/** A huge window; compaction comes from the limit, which only the full replies pass. */
const COMPACTION = [
  "model_context_window = 100000000",
  "model_auto_compact_token_limit = 80000",
  "max_turn_steps = 100000",
];

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
  /** Median ms from one model request to the next over the first and the last tenth. */
  earlyStepMs: number;
  lateStepMs: number;
}

/** Median gaps between consecutive requests in the first and the last tenth of `times`. */
function stepGaps(times: number[]): { earlyStepMs: number; lateStepMs: number } {
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  const tenth = Math.max(1, Math.floor(gaps.length / 10));
  // The first few steps warm up (JIT, first sandbox): the early tenth starts after them.
  const early = gaps.slice(Math.min(10, gaps.length - 1), 10 + tenth);
  return { earlyStepMs: median(early), lateStepMs: median(gaps.slice(-tenth)) };
}

/** One session of `steps` steps: the interpreter's peak RSS in MiB and its wall time. */
async function measureOnce(steps: number, dirs: { home: string; work: string }): Promise<Sample> {
  await using provider: FakeProvider = startFakeProvider(script(steps));
  await Deno.writeTextFile(
    `${dirs.home}/config.toml`,
    fakeProviderConfig(provider.baseUrl, COMPACTION),
  );
  const started = performance.now();
  const { child, output, exited } = spawnWatched(`${REPO}/scripts/interpreter`, {
    args: ["exec", "--skip-git-repo-check", "run the steps"],
    cwd: dirs.work,
    env: { OPENINTERPRETER_HOME: dirs.home, FAKE_KEY: "fake-key", NO_COLOR: "1" },
  });
  let peak = 0;
  while (!exited()) {
    peak = Math.max(peak, await peakKib(child.pid) ?? 0);
    // The bench's own memory: bodies already checked are not needed.
    for (const request of provider.requests.slice(0, -1)) request.body = undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const out = await output;
  const seconds = (performance.now() - started) / 1000;
  if (!out.success || provider.failures.length > 0 || provider.remaining() > 0) {
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-25).join("\n");
    throw new Error(
      `"interpreter exec" (${steps} steps) exited with code ${out.code}, ` +
        `${provider.remaining()} turns left, failures ${
          JSON.stringify(provider.failures)
        }: ${stderr}`,
    );
  }
  if (peak === 0) throw new Error("Could not read VmHWM from /proc");
  const times = provider.requests.map((r) => r.receivedAt ?? 0);
  return { peakMib: peak / 1024, seconds, ...stepGaps(times) };
}

function parseArgs(args: string[]): { runs: number; assert: boolean } | string {
  let runs = isQuick(args) ? 1 : 2;
  let assert = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--assert") assert = true;
    else if (args[i] === "--quick") continue;
    else if (args[i] === "--runs" && /^[1-9]\d*$/.test(args[i + 1] ?? "")) runs = Number(args[++i]);
    else return args[i];
  }
  return { runs, assert };
}

async function main(args: string[]): Promise<number> {
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    console.error(`error: Unknown argument "${opts}"`);
    console.error("hint: the options are --quick, --runs N and --assert");
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
    const longest = samples.at(-1)!;
    const early = median(longest.map((s) => s.earlyStepMs));
    const late = median(longest.map((s) => s.lateStepMs));
    const stepRatio = late / early;
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    console.log(
      `per step in the ${STEPS.at(-1)}-step session (request to request, medians): ` +
        `${early.toFixed(1)} ms in the first tenth, ${late.toFixed(1)} ms in the last`,
    );
    console.log(
      benchLine(`long session ${STEPS[2]} steps RSS growth`, growth, TARGET_MIB, "MiB", true),
    );
    console.log(
      benchLine(
        `long session ${STEPS.at(-1)} steps per-step time last/first tenth`,
        stepRatio,
        TARGET_STEP_RATIO,
      ),
    );
    return opts.assert && (growth > TARGET_MIB || stepRatio > TARGET_STEP_RATIO) ? 1 : 0;
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
