// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Time from spawning `scripts/interpreter exec` to the fake provider receiving its first
 * request, median of 10 runs. Target: at most 200 ms.
 *
 *   deno run -A scripts/bench/first_request.ts [--assert]     (--assert: exit 1 when over target)
 */
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { fakeProviderConfig, median, ms, REPO, sample } from "./_measure.ts";

const RUNS = 10;
const TARGET_MS = 200;

/** One run: ms from spawn until the provider saw a request; the CLI must then exit 0. */
async function measureOnce(): Promise<number> {
  const provider: FakeProvider = startFakeProvider([{ reply: { text: "hello" } }]);
  const home = await Deno.makeTempDir({ prefix: "bench_home_" });
  const work = await Deno.makeTempDir({ prefix: "bench_work_" });
  try {
    await Deno.writeTextFile(`${home}/config.toml`, fakeProviderConfig(provider.baseUrl));
    const start = performance.now();
    const child = new Deno.Command(`${REPO}/scripts/interpreter`, {
      args: ["exec", "--skip-git-repo-check", "-c", "model_provider=fake", "hi"],
      cwd: work,
      env: { OPENINTERPRETER_HOME: home, FAKE_KEY: "fake-key" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let exited = false;
    const output = child.output().finally(() => exited = true);
    while (provider.requests.length === 0 && !exited) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const elapsed = performance.now() - start;
    const out = await output;
    if (provider.requests.length === 0 || !out.success) {
      const stderr = new TextDecoder().decode(out.stderr).trim();
      throw new Error(
        `"interpreter exec" exited with code ${out.code} (requests: ${provider.requests.length}): ${stderr}`,
      );
    }
    return elapsed;
  } finally {
    await provider.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
}

async function main(args: string[]): Promise<number> {
  const [time] = (await sample(RUNS, [measureOnce])).map(median);
  const verdict = time <= TARGET_MS ? "ok" : "OVER TARGET";
  console.log(`spawn to first provider request ${ms(time)}  (median of ${RUNS})`);
  console.log(`target <= ${TARGET_MS} ms: ${verdict}`);
  return args.includes("--assert") && time > TARGET_MS ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
