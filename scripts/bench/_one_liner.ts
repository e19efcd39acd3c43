/**
 * The physical floor the start-up benchmarks compare against: `deno run` of a one-line program
 * that sends one `fetch` to the fake provider, with the same Deno, the same `--config` and the
 * same permission flags as `scripts/interpreter`, timed from spawn until the provider saw it.
 */
import { DENO_PERMISSION_FLAGS } from "../../sandbox/deno_flags.ts";
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { launcherDeno, REPO } from "./_measure.ts";

const ONE_LINER =
  'await (await fetch(Deno.args[0], { method: "POST", body: "{}" })).body?.cancel();\n';

/** What a run may ask of a child: its command, arguments, directory and environment. */
export interface Launch {
  cmd: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * Ms from spawning `launch(provider)` until a fresh fake provider received its first request;
 * the child must then exit 0 (else this throws with its stderr).
 */
export async function timeToFirstRequest(launch: (p: FakeProvider) => Launch): Promise<number> {
  await using provider = startFakeProvider([{ reply: { text: "OK" } }]);
  return await untilFirstRequest(provider, launch(provider));
}

/**
 * Ms from spawning `launch` until `provider` received its first request; the child must then
 * exit 0 (else this throws with the last lines of its stderr).
 */
export async function untilFirstRequest(provider: FakeProvider, launch: Launch): Promise<number> {
  const { cmd, args, cwd, env } = launch;
  const start = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    env,
    stdin: "null",
    stdout: "null",
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
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-8).join("\n");
    throw new Error(
      `"${cmd} ${args.join(" ")}" in ${cwd ?? Deno.cwd()} exited with code ${out.code} ` +
        `(requests: ${provider.requests.length}): ${stderr}`,
    );
  }
  return elapsed;
}

/** Writes the one-liner into `dir`; returns the run that sends its request to a provider. */
export async function oneLiner(dir: string): Promise<(p: FakeProvider) => Launch> {
  const file = `${dir}/one_fetch.ts`;
  await Deno.writeTextFile(file, ONE_LINER);
  return (provider) => ({
    cmd: launcherDeno(),
    args: [
      "run",
      "--quiet",
      "--config",
      `${REPO}/deno.json`,
      ...DENO_PERMISSION_FLAGS,
      file,
      `${provider.baseUrl}/chat/completions`,
    ],
    env: { DENO_NO_UPDATE_CHECK: "1" },
  });
}

/** The machine's load, as `/proc/loadavg` has it (empty where there is none). */
export async function loadLine(): Promise<string> {
  const load = await Deno.readTextFile("/proc/loadavg").catch(() => "");
  return `load ${load.trim() || "unknown"}`;
}
