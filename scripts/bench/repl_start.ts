// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * REPL start to prompt: from spawning `scripts/interpreter` (stdin a pipe kept open) until the
 * banner's last line is on stdout, which the REPL writes just before it reads the first
 * message, as a ratio to the one-liner (`_one_liner.ts`: `deno run` of one `fetch`, same Deno,
 * same permission flags), interleaved rounds, medians. Target: at most 3 times (issue 30).
 *
 *   deno run -A scripts/bench/repl_start.ts [--quick] [--assert]   (--assert: exit 1 on MISS)
 */
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { benchLine, benchRuns, fakeProviderConfig, ms, REPO, sampleMedians } from "./_measure.ts";
import { oneLiner, timeToFirstRequest } from "./_one_liner.ts";

const RUNS = benchRuns();
const TARGET = 3;
const READY = "/help lists the commands";

async function timeToPrompt(cwd: string, home: string): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command(join(REPO, "scripts", "interpreter"), {
    args: ["-s", "read-only"],
    cwd,
    env: { OPENINTERPRETER_HOME: home, FAKE_KEY: "k", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let seen = "";
  let elapsed = NaN;
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    seen += decoder.decode(chunk, { stream: true });
    if (seen.includes(READY)) {
      elapsed = performance.now() - start;
      break;
    }
  }
  await child.stdin.close();
  await child.status;
  if (Number.isNaN(elapsed)) throw new Error(`The REPL never showed its prompt:\n${seen}`);
  return elapsed;
}

async function main(args: string[]): Promise<number> {
  await using fake = await startFakeProvider([]);
  const root = await Deno.makeTempDir({ prefix: "bench_repl_start_" });
  try {
    const cwd = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(cwd);
    await Deno.mkdir(home);
    await new Deno.Command("git", { args: ["init", "-q"], cwd }).output();
    await Deno.writeTextFile(join(home, "config.toml"), fakeProviderConfig(fake.baseUrl));
    const baseline = await oneLiner(root);
    const [repl, floor] = await sampleMedians([
      () => timeToPrompt(cwd, home),
      () => timeToFirstRequest(baseline),
    ]);
    const ratio = repl / floor;
    console.log(`interpreter start to prompt    ${ms(repl)}  (median of ${RUNS})`);
    console.log(`one-liner to its request       ${ms(floor)}  (median of ${RUNS})`);
    console.log(benchLine("REPL prompt vs one-liner", ratio, TARGET));
    return args.includes("--assert") && ratio > TARGET ? 1 : 0;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
