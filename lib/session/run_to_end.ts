/**
 * Runs a program to its end with a time limit and a cancel, through the one process spawner
 * (`lib/tools/process_group.ts`): eval's trials run `interpreter exec` and their sandboxed setup
 * and check commands this way.
 */
import { readPipes, signalGroup, spawnInGroup } from "../tools/process_group.ts";

/** A finished program. */
export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options of `runToEnd()`. */
export interface RunToEndOptions {
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
  /** Stops the program (its whole process group) when aborted. */
  signal?: AbortSignal;
  /** Receives stdout as it arrives, chunk by chunk (it is still collected whole). */
  onStdout?: (text: string) => void;
}

/**
 * Runs `program args` in its own process group, to its end or its time limit (then the group is
 * killed). Never throws for a non-zero exit; throws when the program cannot start, and with the
 * signal's reason when it was aborted before.
 */
export async function runToEnd(
  program: string,
  args: string[],
  opts: RunToEndOptions,
): Promise<Finished> {
  opts.signal?.throwIfAborted();
  const env = opts.clearEnv ? opts.env ?? {} : { ...Deno.env.toObject(), ...opts.env };
  const child = spawnInGroup({
    cmd: program,
    args,
    cwd: opts.cwd,
    env,
    stdin: opts.stdin === undefined ? "null" : "piped",
  });
  const output = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
  const decoder = new TextDecoder();
  const reading = readPipes(child, (pipe, chunk) => {
    output[pipe].push(chunk);
    if (pipe === "stdout" && opts.onStdout) opts.onStdout(decoder.decode(chunk, { stream: true }));
  });
  let timedOut = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    if (opts.graceMs === undefined) return signalGroup(child);
    if (grace !== undefined) return;
    signalGroup(child, "SIGTERM");
    grace = setTimeout(() => signalGroup(child), opts.graceMs);
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
    const [status] = await Promise.all([child.status, reading.done]);
    return {
      code: status.code,
      stdout: decodeAll(output.stdout),
      stderr: decodeAll(output.stderr),
      timedOut,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    opts.signal?.removeEventListener("abort", kill);
  }
}

function decodeAll(chunks: Uint8Array[]): string {
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
