/** Timing helpers shared by the benchmarks in this folder. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DENO_PERMISSION_FLAGS } from "../../sandbox/deno_flags.ts";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

/** The deno binary scripts/interpreter picks first: the pinned one, else this one. */
export function launcherDeno(): string {
  const pinned = `${REPO}/scripts/deno/node_modules/.bin/deno`;
  return existsSync(pinned) ? pinned : Deno.execPath();
}

/**
 * `deno run` arguments as scripts/interpreter uses them (quiet, the repository's config, the
 * sandbox's permission flags), with `flags` before the config and `rest` after the permissions.
 */
export function denoRunArgs(rest: string[], flags: string[] = []): string[] {
  return [
    "run",
    "--quiet",
    ...flags,
    "--config",
    `${REPO}/deno.json`,
    ...DENO_PERMISSION_FLAGS,
    ...rest,
  ];
}

/** The median of a non-empty list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs each measurement once to warm caches, then `runs` rounds of all of them in turn, so that
 * load from other processes affects each one alike. Returns the timings in ms, per measurement.
 */
export async function sample(
  runs: number,
  measures: (() => Promise<number>)[],
): Promise<number[][]> {
  for (const measure of measures) await measure();
  const times: number[][] = measures.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [j, measure] of measures.entries()) times[j].push(await measure());
  }
  return times;
}

/**
 * `sample`'s medians, one per measurement, with the machine's load printed before and after
 * (rounds from `isQuick`: 5, else 11).
 */
export async function sampleMedians(measures: (() => Promise<number>)[]): Promise<number[]> {
  // deno-lint-ignore no-console -- the bench's output
  console.log(await loadLine());
  const medians = (await sample(benchRuns(), measures)).map(median);
  // deno-lint-ignore no-console -- the bench's output
  console.log(await loadLine());
  return medians;
}

/** The rounds a start-up bench runs: 5 with `--quick`, else 11. */
export function benchRuns(): number {
  return isQuick() ? 5 : 11;
}

/** The machine's load, as `/proc/loadavg` has it (empty where there is none). */
async function loadLine(): Promise<string> {
  const load = await Deno.readTextFile("/proc/loadavg").catch(() => "");
  return `load ${load.trim() || "unknown"}`;
}

/**
 * Spawns `cmd` with no stdin, stdout dropped and stderr piped; `exited()` turns true once it
 * has ended.
 */
export function spawnWatched(
  cmd: string,
  options: { args: string[]; cwd?: string; env?: Record<string, string> },
): { child: Deno.ChildProcess; output: Promise<Deno.CommandOutput>; exited: () => boolean } {
  const child = new Deno.Command(cmd, {
    ...options,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let done = false;
  const output = child.output().finally(() => done = true);
  return { child, output, exited: () => done };
}

/** Wall time in ms of one process run to completion; throws with its stderr if it fails. */
export async function timeProcess(cmd: string, args: string[]): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  const elapsed = performance.now() - start;
  if (!out.success) {
    const stderr = new TextDecoder().decode(out.stderr).trim();
    throw new Error(`"${cmd} ${args.join(" ")}" exited with code ${out.code}: ${stderr}`);
  }
  return elapsed;
}

/** A number of milliseconds, right-aligned, with one decimal. */
export function ms(value: number): string {
  return `${value.toFixed(1).padStart(7)} ms`;
}

/**
 * A `config.toml` whose only provider is the fake server at `baseUrl` (key in `FAKE_KEY`);
 * `extra` lines go at the top level.
 */
export function fakeProviderConfig(baseUrl: string, extra: string[] = []): string {
  return [
    `model_provider = "fake"`,
    `model = "fake-model"`,
    ...extra,
    "",
    "[model_providers.fake]",
    `name = "fake"`,
    `base_url = ${JSON.stringify(baseUrl)}`,
    `wire_api = "chat"`,
    `env_key = "FAKE_KEY"`,
    "",
  ].join("\n");
}

/** True when `scripts/bench/all --quick` (BENCH_QUICK=1) or `--quick` asks for fewer rounds. */
export function isQuick(args: string[] = Deno.args): boolean {
  return Deno.env.get("BENCH_QUICK") === "1" || args.includes("--quick");
}

/**
 * The line `scripts/bench/all` gathers: `bench: <figure> <value> (target <= <target>) ok|MISS`.
 * `unit` is "x" for ratios; absolute limits give theirs (e.g. "MiB"); `signed` shows a "+" (growth).
 */
export function benchLine(
  figure: string,
  value: number,
  target: number,
  unit = "x",
  signed = false,
): string {
  const sign = (n: number) => signed && n >= 0 ? "+" : "";
  const shown = unit === "x" ? value.toFixed(2) : `${sign(value)}${value.toFixed(1)}`;
  const limit = `${sign(target)}${target}`;
  return `bench: ${figure} ${shown}${unit} (target <= ${limit}${unit}) ${
    value <= target ? "ok" : "MISS"
  }`;
}
