/**
 * The physical floor the start-up benchmarks compare against: `deno run` of a one-line program
 * that sends one `fetch` to the fake provider, with the same Deno, the same `--config` and the
 * same permission flags as `scripts/interpreter`, timed from spawn until the provider saw it.
 */
import { type FakeProvider, startFakeProvider } from "../../tests/fake_provider/server.ts";
import { denoRunArgs, launcherDeno, spawnWatched } from "./_measure.ts";

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
  const { output, exited } = spawnWatched(cmd, { args, cwd, env });
  while (provider.requests.length === 0 && !exited()) {
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
    args: denoRunArgs([file, `${provider.baseUrl}/chat/completions`]),
    env: { DENO_NO_UPDATE_CHECK: "1" },
  });
}
