// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * Launch to first model request: from spawning `scripts/interpreter exec "say OK"` until the fake
 * provider receives its request, as a ratio to the one-liner (`_one_liner.ts`: `deno run` of one
 * `fetch` to the same kind of server, same Deno, same permission flags), interleaved rounds,
 * medians. Target: at most 3 times the one-liner (issue 30).
 *
 *   deno run -A scripts/bench/first_request.ts [--quick] [--assert]   (--assert: exit 1 on MISS)
 */
import { join } from "node:path";
import { benchLine, benchRuns, fakeProviderConfig, ms, REPO, sampleMedians } from "./_measure.ts";
import { oneLiner, timeToFirstRequest } from "./_one_liner.ts";

const RUNS = benchRuns();
const TARGET = 3;

async function main(args: string[]): Promise<number> {
  const root = await Deno.makeTempDir({ prefix: "bench_first_request_" });
  try {
    const home = join(root, "home");
    const work = join(root, "work");
    await Deno.mkdir(home);
    await Deno.mkdir(work);
    const baseline = await oneLiner(root);
    const [cli, floor] = await sampleMedians([
      () =>
        timeToFirstRequest((provider) => {
          // Each run has its own provider; the config names it before the spawn.
          Deno.writeTextFileSync(join(home, "config.toml"), fakeProviderConfig(provider.baseUrl));
          return {
            cmd: join(REPO, "scripts", "interpreter"),
            args: ["exec", "--skip-git-repo-check", "say OK"],
            cwd: work,
            env: { OPENINTERPRETER_HOME: home, FAKE_KEY: "fake-key" },
          };
        }),
      () => timeToFirstRequest(baseline),
    ]);
    const ratio = cli / floor;
    console.log(`interpreter exec to first request ${ms(cli)}  (median of ${RUNS})`);
    console.log(`one-liner to its request          ${ms(floor)}  (median of ${RUNS})`);
    console.log(benchLine("first request vs one-liner", ratio, TARGET));
    return args.includes("--assert") && ratio > TARGET ? 1 : 0;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
