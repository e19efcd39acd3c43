/**
 * Default signal dispositions for sandboxed commands. A signal ignored by a parent stays ignored
 * across `exec`, and neither the launcher shell nor bash may reset a signal ignored on entry, so
 * `interpreter` started with SIGQUIT or SIGINT ignored (a background job of a script) would pass
 * that on to every command. GNU `env --default-signal` (coreutils 8.31 and later) sets every
 * signal back to its default before it starts the launcher; where it is missing, commands keep
 * what they inherit, as before. When a child spawned as the sandboxes are inherits no ignored
 * signal (the usual case: Deno resets the SIGPIPE it ignores itself), the extra program is left
 * out, since each sandboxed command would pay for starting it.
 */

/** The program that resets the dispositions. */
const ENV = "/usr/bin/env";

/** What to put before a launcher argv so that it starts with default dispositions. */
export type SignalReset = readonly string[];

/** Signals 1 to 31; 32 and 33 belong to the C library, which no program can reset. */
const STANDARD = (1n << 31n) - 1n;

/**
 * `[ENV, "--default-signal"]` when a child would inherit an ignored signal and that program works
 * on this host, else an empty prefix.
 */
export async function probeSignalReset(): Promise<SignalReset> {
  if (!(await childIgnoresSignals())) return [];
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

/** Whether a child spawned as sandboxes are (detached) starts with a standard signal ignored. */
async function childIgnoresSignals(): Promise<boolean> {
  const out = await new Deno.Command("/bin/sh", {
    args: [
      "-c",
      'while read -r k v; do [ "$k" = SigIgn: ] && echo "$k $v"; done </proc/self/status',
    ],
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).output().catch(() => undefined);
  const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(new TextDecoder().decode(out?.stdout))?.[1];
  return mask === undefined || (BigInt(`0x${mask}`) & STANDARD) !== 0n;
}
