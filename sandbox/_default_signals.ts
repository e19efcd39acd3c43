/**
 * Default signal dispositions for sandboxed commands. A signal ignored by a parent stays ignored
 * across `exec`, and neither the launcher shell nor bash may reset a signal ignored on entry, so
 * `interpreter` started with SIGQUIT or SIGINT ignored (a background job of a script) would pass
 * that on to every command. GNU `env --default-signal` (coreutils 8.31 and later) sets every
 * signal back to its default before it starts the launcher; where it is missing, commands keep
 * what they inherit, as before.
 */

/** The program that resets the dispositions. */
const ENV = "/usr/bin/env";

/** What to put before a launcher argv so that it starts with default dispositions. */
export type SignalReset = readonly string[];

/** `[ENV, "--default-signal"]` when that works on this host, else an empty prefix. */
export async function probeSignalReset(): Promise<SignalReset> {
  const works = await new Deno.Command(ENV, {
    args: ["--default-signal", "/bin/sh", "-c", ":"],
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output().then((out) => out.success, () => false);
  return works ? [ENV, "--default-signal"] : [];
}

/** `cmd` and `args` started through `reset`. */
export function withSignalReset(
  reset: SignalReset,
  spec: { cmd: string; args: string[] },
): { cmd: string; args: string[] } {
  if (reset.length === 0) return spec;
  return { cmd: reset[0], args: [...reset.slice(1), spec.cmd, ...spec.args] };
}
