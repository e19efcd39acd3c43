// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * First request in a big repository beside a small one: generates (in a temp folder) a git
 * repository of 100,000 files whose history is 2,000 commits of 25 KB of random text (50 MB of
 * content; about 38 MB packed), and one of 10 files, each with AGENTS.md files, a skill and
 * uncommitted changes; then times spawn to first model request of `interpreter exec` in each,
 * interleaved (median of 7), for harnesses that read git facts, instructions, skills and the
 * folder tree. Target: the big repository at most 1.5x the small one. Quick mode (BENCH_QUICK=1
 * or --quick): 400 history commits, 3 rounds, native and claude-code only.
 *
 *   deno run -A scripts/bench/scale_repo.ts [--quick]
 */
import { join } from "node:path";
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { bigRepo, FULL_SIZE, historyBytes, smallRepo } from "./_scale_repo.ts";
import { benchLine, fakeProviderConfig, isQuick, median, ms, REPO, sample } from "./_measure.ts";
import { untilFirstRequest } from "./_one_liner.ts";

const QUICK = isQuick();
const RUNS = QUICK ? 3 : 7;
const TARGET_RATIO = 1.5;
const HARNESSES = QUICK
  ? ["native", "claude-code"]
  : ["native", "claude-code", "kimi-cli", "qwen-code"];

/** Ms from spawning `interpreter exec` in `cwd` to the provider's first request. */
export async function firstRequestMs(cwd: string, home: string, args: string[]): Promise<number> {
  await using provider: FakeProvider = startFakeProvider([{ reply: { text: "OK" } }]);
  await Deno.writeTextFile(join(home, "config.toml"), fakeProviderConfig(provider.baseUrl));
  return await untilFirstRequest(provider, {
    cmd: `${REPO}/scripts/interpreter`,
    args: ["exec", ...args, "say OK"],
    cwd,
    env: { OPENINTERPRETER_HOME: home, FAKE_KEY: "fake-key", NO_COLOR: "1" },
  });
}

async function main(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "bench_scale_" });
  try {
    const small = join(root, "small");
    const big = join(root, "big");
    const home = join(root, "home");
    await Deno.mkdir(home);
    const size = QUICK ? { ...FULL_SIZE, historyCommits: 400 } : FULL_SIZE;
    const started = performance.now();
    await smallRepo(small);
    await bigRepo(big, size);
    console.log(
      `generated: ${size.files} files, ${size.historyCommits} history commits of ` +
        `${size.historyBlobBytes / 1000} KB (${(await historyBytes(big) / 1e6).toFixed(1)} MB ` +
        `packed) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const lines: string[] = [];
    for (const harness of HARNESSES) {
      const args = ["--harness", harness];
      const [smallMs, bigMs] = (await sample(RUNS, [
        () => firstRequestMs(small, home, args),
        () => firstRequestMs(big, home, args),
      ])).map(median);
      console.log(
        `${harness.padEnd(12)} 10 files ${ms(smallMs)}   ${size.files} files ${ms(bigMs)}`,
      );
      lines.push(
        benchLine(
          `first request 100k-file repo / 10 files (${harness})`,
          bigMs / smallMs,
          TARGET_RATIO,
        ),
      );
    }
    console.log(`load ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    for (const line of lines) console.log(line);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
