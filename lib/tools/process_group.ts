/**
 * The one way the program runs a command for the model or the user: shell commands
 * (`shell_run.ts`), background jobs (`shell_jobs.ts`) and hooks (`hooks/run_hook.ts`); stdio MCP
 * servers (`mcp/stdio_transport.ts`) and eval's runs (`session/run_to_end.ts`) start and are
 * signalled here too. The child
 * starts with exactly the given environment in a process group of its own (not on Windows), so
 * that killing the group ends whatever it started too; its stdout and stderr are read as chunks
 * arrive (`CappedOutput` keeps a long output's head and tail); it is killed at its timeout or
 * when the turn is cancelled; and once it exited its pipes are read only a short grace longer,
 * since a background child it left may hold them open.
 * Wrapping the command in the sandbox, or a hook in its PID namespace, is the caller's part: it
 * gives the argv to run here.
 */
import type { PreparedProcess } from "../../sandbox/warm_sandbox.ts";

export { CappedOutput } from "./_capped_output.ts";

/** setTimeout fires at once for longer delays. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What to start: the program, its arguments, where and with which environment. */
export interface GroupSpawn {
  cmd: string;
  args: string[];
  cwd: string;
  /** The child's whole environment; nothing of ours is inherited. */
  env: Record<string, string>;
  /** "piped" for a child given input; default "null". */
  stdin?: "null" | "piped";
}

/** A started child as this module uses it; a `Deno.ChildProcess` is one, a prepared sandbox too. */
export type GroupChild = PreparedProcess;

/** Which pipe a chunk came from. */
export type PipeName = "stdout" | "stderr";

/** Starts `spec` with stdout and stderr piped, in a process group of its own; throws if it can't. */
export function spawnInGroup(spec: GroupSpawn): Deno.ChildProcess {
  return new Deno.Command(spec.cmd, {
    args: spec.args,
    cwd: spec.cwd,
    clearEnv: true,
    env: spec.env,
    stdin: spec.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
    detached: Deno.build.os !== "windows",
  }).spawn();
}

/**
 * Sends `signal` to the process group of `child` (on Windows, to the child), ignoring one already
 * gone.
 */
export function signalGroup(
  child: Pick<GroupChild, "pid" | "kill">,
  signal: Deno.Signal = "SIGKILL",
): void {
  try {
    if (Deno.build.os !== "windows") Deno.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/** Kills the process group of `child` (see `signalGroup`). */
function killProcessGroup(child: Pick<GroupChild, "pid" | "kill">): void {
  signalGroup(child, "SIGKILL");
}

/** Reading a child's two pipes. */
export interface PipeReading {
  /** Resolves when both pipes closed (or reading was cancelled) and every chunk was handed on. */
  done: Promise<void>;
  /** Stops reading; pending reads end at once. Resolves with `done`. */
  cancel(): Promise<void>;
}

/** Reads stdout and stderr, giving each chunk to `onChunk` as it arrives, until both close. */
export function readPipes(
  child: Pick<GroupChild, "stdout" | "stderr">,
  onChunk: (stream: PipeName, chunk: Uint8Array) => void,
): PipeReading {
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pumps = readers.map(async (reader, i) => {
    const stream: PipeName = i === 0 ? "stdout" : "stderr";
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) onChunk(stream, r.value);
    } catch {
      // Cancelled.
    }
  });
  const done = Promise.all(pumps).then(() => {});
  const cancel = async () => {
    await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
    await done;
  };
  return { done, cancel };
}

/** Waits for `p` to settle, or `ms` to pass, whichever comes first. */
export async function settleWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((res) => timer = setTimeout(res, ms));
  await Promise.race([p.then(() => {}, () => {}), grace]);
  clearTimeout(timer);
}

/** Why a watched child was killed, once it was. */
export interface Watch {
  readonly reason: "timeout" | "abort" | null;
  /** Stops watching (call once the child exited). */
  stop(): void;
}

/** Kills the child's process group when `timeoutMs` passes or `signal` aborts, whichever first. */
function killOnTimeout(child: GroupChild, timeoutMs: number, signal?: AbortSignal): Watch {
  let reason: Watch["reason"] = null;
  const kill = (why: "timeout" | "abort") => {
    if (reason) return;
    reason = why;
    killProcessGroup(child);
  };
  const timer = setTimeout(() => kill("timeout"), Math.min(timeoutMs, MAX_TIMER_MS));
  const onAbort = () => kill("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    get reason() {
      return reason;
    },
    stop() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** How `superviseChild()` reads and limits a child. */
export interface SuperviseOptions {
  timeoutMs: number;
  /** Aborting kills the child; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  onChunk(stream: PipeName, chunk: Uint8Array): void;
  /** How long the pipes are still read after the child exited. */
  graceMs: number;
}

/** How a supervised child ended: its status, and "timeout" when its timeout killed it. */
export interface ChildEnd {
  status: Deno.CommandStatus;
  killed: "timeout" | null;
}

/**
 * Reads a started child's output until it exited and its pipes closed (or the grace passed), and
 * kills its process group at the timeout or on abort. Rejects with the abort reason when aborted.
 */
export async function superviseChild(child: GroupChild, opts: SuperviseOptions): Promise<ChildEnd> {
  const reading = readPipes(child, opts.onChunk);
  const watch = killOnTimeout(child, opts.timeoutMs, opts.signal);
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
    await settleWithin(reading.done, opts.graceMs);
    await reading.cancel();
  } finally {
    watch.stop();
  }
  if (watch.reason === "abort") {
    throw opts.signal?.reason ?? new DOMException("Aborted", "AbortError");
  }
  return { status, killed: watch.reason };
}
