/** Small process helpers for eval: run a command to its end, with a time limit and a cancel. */

/** A finished command. */
export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options of `runCommand`. */
export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Start from `env` alone, not the parent's environment added to it. */
  clearEnv?: boolean;
  stdin?: string;
  timeoutMs?: number;
  /**
   * At the time limit or an abort the program first gets SIGTERM (to end cleanly: exec writes
   * its trajectory and removes its temp files), and its group is killed this many milliseconds
   * later. Default: killed at once.
   */
  graceMs?: number;
  /** Stops the command (its whole process group) when aborted. */
  signal?: AbortSignal;
}

/**
 * Runs `program args` in its own process group, to its end or its time limit (then the group is
 * killed). Never throws for a non-zero exit; throws when the program cannot start, and with the
 * signal's reason when it was aborted before.
 */
export async function runCommand(
  program: string,
  args: string[],
  opts: RunOptions,
): Promise<Finished> {
  opts.signal?.throwIfAborted();
  const child = new Deno.Command(program, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: opts.clearEnv,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let timedOut = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    if (opts.graceMs === undefined) return killGroup(child.pid);
    if (grace !== undefined) return;
    killGroup(child.pid, "SIGTERM");
    grace = setTimeout(() => killGroup(child.pid), opts.graceMs);
  };
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    kill();
  }, opts.timeoutMs);
  opts.signal?.addEventListener("abort", kill, { once: true });
  try {
    if (opts.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(opts.stdin)).catch(() => {});
      await writer.close().catch(() => {});
    }
    const out = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr), timedOut };
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    opts.signal?.removeEventListener("abort", kill);
  }
}

/** Kills process group `pid` (on Windows the process), ignoring one already gone. */
function killGroup(pid: number, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(Deno.build.os === "windows" ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}
