// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * What the bundle `scripts/interpreter` runs (scripts/bundle.ts) saves: launch to first model
 * request of `scripts/interpreter exec "say OK"` from the bundle, from the sources
 * (INTERPRETER_BUNDLE=0), from the bundle without V8's code cache (`--no-code-cache`, to show the
 * cache applies), and the one-liner, interleaved rounds, medians. Target: the bundle at most 0.8
 * times the sources (the issue measured a code-split bundle at 0.78).
 *
 *   deno run -A scripts/bench/bundle.ts [--quick] [--assert]   (--assert: exit 1 on MISS)
 */
import { join } from "node:path";
import { buildBundle, DEFAULT_CACHE } from "../bundle.ts";
import {
  benchLine,
  benchRuns,
  denoRunArgs,
  fakeProviderConfig,
  launcherDeno,
  ms,
  REPO,
  sampleMedians,
} from "./_measure.ts";
import { type Launch, oneLiner, timeToFirstRequest } from "./_one_liner.ts";
import type { FakeProvider } from "../../tests/fake_provider/server.ts";

const RUNS = benchRuns();
const TARGET = 0.8;

async function main(args: string[]): Promise<number> {
  const root = await Deno.makeTempDir({ prefix: "bench_bundle_" });
  try {
    const home = join(root, "home");
    const work = join(root, "work");
    await Deno.mkdir(home);
    await Deno.mkdir(work);
    const bundleMain = await buildBundle(
      REPO,
      Deno.env.get("INTERPRETER_BUNDLE_DIR") ?? DEFAULT_CACHE,
    );
    const env = { OPENINTERPRETER_HOME: home, FAKE_KEY: "fake-key", DENO_NO_UPDATE_CHECK: "1" };
    const exec = ["exec", "--skip-git-repo-check", "say OK"];
    const configFor = (provider: FakeProvider) =>
      // Each run has its own provider; the config names it before the spawn.
      Deno.writeTextFileSync(join(home, "config.toml"), fakeProviderConfig(provider.baseUrl));
    const launcher = (bundle: string) => (provider: FakeProvider): Launch => {
      configFor(provider);
      const cmd = join(REPO, "scripts", "interpreter");
      return { cmd, args: exec, cwd: work, env: { ...env, INTERPRETER_BUNDLE: bundle } };
    };
    const noCodeCache = (provider: FakeProvider): Launch => {
      configFor(provider);
      const args = denoRunArgs([bundleMain, ...exec], ["--no-code-cache"]);
      return { cmd: launcherDeno(), args, cwd: work, env };
    };
    const baseline = await oneLiner(root);
    const [bundled, sources, uncached, floor] = await sampleMedians([
      () => timeToFirstRequest(launcher("1")),
      () => timeToFirstRequest(launcher("0")),
      () => timeToFirstRequest(noCodeCache),
      () => timeToFirstRequest(baseline),
    ]);
    console.log(`first request from the bundle          ${ms(bundled)}  (median of ${RUNS})`);
    console.log(`first request from the sources         ${ms(sources)}`);
    console.log(`first request, bundle, no code cache   ${ms(uncached)}`);
    console.log(`one-liner to its request               ${ms(floor)}`);
    console.log(
      `bundle vs one-liner ${(bundled / floor).toFixed(2)}x, sources vs one-liner ${
        (sources / floor).toFixed(2)
      }x, code cache saves ${(1 - bundled / uncached).toFixed(2)} of the bundle's start`,
    );
    const ratio = bundled / sources;
    console.log(benchLine("first request, bundle vs sources", ratio, TARGET));
    return args.includes("--assert") && ratio > TARGET ? 1 : 0;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
