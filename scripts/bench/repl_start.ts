// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * REPL start to prompt: from spawning `scripts/interpreter` (stdin a pipe kept open) until the
 * banner's last line is on stdout, which the REPL writes just before it reads the first
 * message. Median of 10 runs, next to `scripts/interpreter --version` (the process floor).
 * Target: at most 150 ms.
 *
 *   deno run -A scripts/bench/repl_start.ts [--assert]     (--assert: exit 1 when over target)
 */
import { join } from "node:path";
import { startFakeProvider } from "../../tests/fake_provider/server.ts";
import { fakeProviderConfig, median, ms, REPO, sample, timeProcess } from "./_measure.ts";

const RUNS = 10;
const TARGET_MS = 150;
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
    const [repl, version] = (await sample(RUNS, [
      () => timeToPrompt(cwd, home),
      () => timeProcess(join(REPO, "scripts", "interpreter"), ["--version"]),
    ])).map(median);
    const verdict = repl <= TARGET_MS ? "ok" : "OVER TARGET";
    console.log(`interpreter start to prompt    ${ms(repl)}  (median of ${RUNS})`);
    console.log(`interpreter --version          ${ms(version)}  (median of ${RUNS})`);
    console.log(
      `session set-up ${ms(repl - version)}; target <= ${TARGET_MS} ms to prompt: ${verdict}`,
    );
    return args.includes("--assert") && repl > TARGET_MS ? 1 : 0;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
