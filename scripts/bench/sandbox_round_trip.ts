// deno-lint-ignore-file no-console -- a command-line benchmark; its output is the point
/**
 * A sandboxed command's cost in a session's whole tool round trip: `interpreter exec` against the
 * fake provider, whose script asks for `true` calls, with the workspace-write sandbox (bwrap +
 * seccomp, network off) and with danger-full-access, sessions interleaved. The figure is the
 * time from one model request to the next (the fake provider's clock), per command:
 *
 * - single: 20 turns of one call each; each interval is one command's round trip.
 * - back to back: 4 turns of 5 parallel calls; each interval is divided by 5.
 *
 *   deno run -A scripts/bench/sandbox_round_trip.ts [rounds]   (default 5)
 */
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { denoRunArgs, fakeProviderConfig, launcherDeno, median, ms, REPO } from "./_measure.ts";

const ROUNDS = Number(Deno.args[0] ?? 5);
const TARGET = 1.3;

interface Shape {
  name: string;
  turns: number;
  callsPerTurn: number;
}

const SHAPES: Shape[] = [
  { name: "single", turns: 20, callsPerTurn: 1 },
  { name: "back to back", turns: 4, callsPerTurn: 5 },
];

const MODES = {
  unsandboxed: ["--sandbox", "danger-full-access"],
  sandboxed: ["--sandbox", "workspace-write"],
};

function script(shape: Shape) {
  // Distinct arguments (`true` ignores them), so the loop guard sees no repetition.
  const turns = Array.from({ length: shape.turns }, (_, turn) => ({
    reply: {
      tool_calls: Array.from(
        { length: shape.callsPerTurn },
        (_, i) => ({ name: "exec_command", args: { cmd: `true ${turn}.${i}` } }),
      ),
    },
  }));
  return [...turns, { reply: { text: "done" } }];
}

/** One session's request-to-request intervals in ms, per command. */
async function session(
  shape: Shape,
  flags: string[],
  dirs: { home: string; work: string },
): Promise<number[]> {
  await using provider: FakeProvider = startFakeProvider(script(shape));
  await Deno.writeTextFile(`${dirs.home}/config.toml`, fakeProviderConfig(provider.baseUrl));
  // The sources, as scripts/interpreter runs them: start-up is not what is measured here.
  const out = await new Deno.Command(launcherDeno(), {
    args: denoRunArgs([
      `${REPO}/main.ts`,
      "exec",
      "--skip-git-repo-check",
      "--ephemeral",
      "--harness",
      "native",
      "-a",
      "never",
      ...flags,
      "run the steps",
    ]),
    cwd: dirs.work,
    env: {
      OPENINTERPRETER_HOME: dirs.home,
      FAKE_KEY: "fake-key",
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success || provider.failures.length > 0 || provider.remaining() > 0) {
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
    throw new Error(
      `"interpreter exec ${flags.join(" ")}" exited with code ${out.code}, ` +
        `${provider.remaining()} turns left, failures ${
          JSON.stringify(provider.failures)
        }: ${stderr}`,
    );
  }
  const times = provider.requests.map((r) => r.receivedAt!);
  return times.slice(1).map((t, i) => (t - times[i]) / shape.callsPerTurn);
}

async function main(): Promise<number> {
  const home = await Deno.makeTempDir({ prefix: "bench_home_" });
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench_work_" }));
  await Deno.mkdir(`${work}/.git`);
  const dirs = { home, work };
  try {
    console.log(`load: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    const figures: [string, number][] = [];
    for (const shape of SHAPES) {
      const times = { unsandboxed: [] as number[], sandboxed: [] as number[] };
      for (let round = 0; round <= ROUNDS; round++) {
        for (const [mode, flags] of Object.entries(MODES)) {
          const intervals = await session(shape, flags, dirs);
          // Round 0 warms the caches.
          if (round > 0) times[mode as keyof typeof MODES].push(...intervals);
        }
      }
      const bare = median(times.unsandboxed);
      const boxed = median(times.sandboxed);
      console.log(
        `${shape.name.padEnd(13)} (${shape.turns} turns x ${shape.callsPerTurn}): ` +
          `unsandboxed ${ms(bare)}  sandboxed ${ms(boxed)}  per command, median of ${ROUNDS} ` +
          `sessions each`,
      );
      figures.push([`sandboxed round trip, ${shape.name}`, boxed / bare]);
    }
    console.log(`load: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
    for (const [name, ratio] of figures) {
      const verdict = ratio <= TARGET ? "ok" : "MISS";
      console.log(`bench: ${name} ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${verdict}`);
    }
    return 0;
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
