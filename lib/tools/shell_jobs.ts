import { join } from "node:path";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import { CappedOutput, OUTPUT_KEEP_BYTES } from "./_capped_output.ts";
import { scratchOf } from "./_fs.ts";
import { resourceKey, resourcesOf } from "./resources.ts";
import type { SpawnSpec } from "../../sandbox/command_sandbox.ts";
import type { ScratchSpace, ScratchWriter } from "../../sandbox/scratch_space.ts";
import {
  type GroupChild,
  type PipeName,
  readPipes,
  settleWithin,
  signalGroup,
  spawnInGroup,
} from "./process_group.ts";

/** Where the session's JobRegistry lives in `ctx.resources`; disposing those stops the jobs. */
export const JOBS_RESOURCE = resourceKey<JobRegistry>("tools.shell_jobs");
/**
 * The registry's key in `ctx.state` for a context without `resources` (see `resourcesOf`).
 * @deprecated Give the context `resources` and read `JOBS_RESOURCE` from it.
 */
export const JOBS_STATE_KEY = JOBS_RESOURCE.name;
/** After SIGTERM, how long a stopped job's shell gets before its group is sent SIGKILL. */
const STOP_GRACE_MS = 2000;
/** How long to keep copying output after a job's shell exits, before reporting it completed. */
const DRAIN_GRACE_MS = 250;

/** What a caller sees of a background job. */
export interface JobInfo {
  id: string;
  command: string;
  description: string;
  /** Absolute working directory. */
  cwd: string;
  pid: number;
  /** File receiving the job's combined stdout and stderr. */
  outputPath: string;
  status: "running" | "completed";
  /** Null while running, and when a signal ended the shell. */
  exitCode: number | null;
  /** The signal that ended the shell, if one did. */
  signal: string | null;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

/** Told about every chunk of a job's output as it is copied. */
export type OutputListener = (stream: PipeName, chunk: Uint8Array) => void;

interface Job {
  info: JobInfo;
  /** Who wants the job's output as it comes (`watch`). */
  listeners: Set<OutputListener>;
  /** Resolves once the shell exited and its output was copied (or the drain grace passed). */
  finished: Promise<void>;
  /** The process and its output copy; dropped once both pipes closed, releasing their buffers. */
  live?: { child: GroupChild; copy: Copy };
  /** The job's stdin, when it was started with one (`start({stdin: true})`). */
  stdin?: WritableStreamDefaultWriter<Uint8Array>;
}

/**
 * The background jobs of one session. Each job runs in its own process group with its combined
 * output copied into `<dir>/<id>.output`, where `<dir>` is a folder of the session's scratch
 * space that sandboxed commands can read too. Disposing kills every job's group and removes the
 * folder. Get the session's instance with `jobRegistryOf(ctx)`.
 */
export class JobRegistry implements AsyncDisposable {
  readonly #jobs = new Map<string, Job>();
  readonly #scratch: ScratchSpace;
  #dir: Promise<string> | undefined;
  #disposed = false;
  readonly #stopGraceMs: number;

  /**
   * `scratch` holds the output files (the session's `ctx.scratch`); `stopGraceMs` is how long
   * `stop` waits after SIGTERM, default STOP_GRACE_MS.
   */
  constructor(opts: { scratch: ScratchSpace; stopGraceMs?: number }) {
    this.#scratch = opts.scratch;
    this.#stopGraceMs = opts.stopGraceMs ?? STOP_GRACE_MS;
  }

  /**
   * Starts a job in the background: spawns `spawn` (the shell, already wrapped by the sandbox
   * when there is one) in `cwd`; `command` is the command line it runs, for listings. With
   * `stdin` the job keeps a pipe for `write`; `onOutput` hears every chunk from the first.
   * Throws ToolError when the process cannot start.
   */
  async start(spec: {
    spawn?: SpawnSpec;
    /** A process already running (in a sandbox the session prepared) in place of `spawn`. */
    started?: GroupChild;
    command: string;
    cwd: string;
    description?: string;
    stdin?: boolean;
    onOutput?: OutputListener;
  }): Promise<JobInfo> {
    if (this.#disposed) throw new TypeError("JobRegistry is disposed");
    this.#dir ??= this.#scratch.makeDir("jobs-", { visibleToCommands: true });
    const id = this.#newId();
    const outputPath = join(await this.#dir, `${id}.output`);
    const file = await this.#scratch.create(outputPath);
    let child: GroupChild;
    let stdin: WritableStream<Uint8Array> | undefined;
    try {
      if (spec.started) child = spec.started;
      else {
        if (!spec.spawn) throw new TypeError("JobRegistry.start() needs spawn or started");
        const spawned = spawnInGroup({
          ...spec.spawn,
          cwd: spec.cwd,
          stdin: spec.stdin ? "piped" : "null",
        });
        if (spec.stdin) stdin = spawned.stdin;
        child = spawned;
      }
    } catch (err) {
      file.close();
      await this.#scratch.remove(outputPath).catch(() => {});
      throw new ToolError(
        `Cannot start background command: ${(err as Error).message}`,
        "Check that bash is installed",
      );
    }
    const info: JobInfo = {
      id,
      command: spec.command,
      description: spec.description ?? "",
      cwd: spec.cwd,
      pid: child.pid,
      outputPath,
      status: "running",
      exitCode: null,
      signal: null,
      startedAt: Date.now(),
    };
    const listeners = new Set<OutputListener>(spec.onOutput ? [spec.onOutput] : []);
    const copy = copyOutput(child, file, listeners);
    const finished = child.status.then(async (s) => {
      await settleWithin(copy.done, DRAIN_GRACE_MS);
      Object.assign(info, {
        status: "completed",
        exitCode: s.signal ? null : s.code,
        signal: s.signal,
      });
    });
    const job: Job = { info, listeners, finished, live: { child, copy } };
    if (stdin) job.stdin = stdin.getWriter();
    this.#jobs.set(id, job);
    Promise.allSettled([copy.done, child.status]).then(() => {
      job.live = undefined;
      job.stdin?.close().catch(() => {});
    });
    return { ...info };
  }

  /** A snapshot of the job, or a ToolError `Unknown task id <id>`. */
  get(id: string): JobInfo {
    return { ...this.#job(id).info };
  }

  /** Snapshots of all jobs, newest first. */
  list(): JobInfo[] {
    return [...this.#jobs.values()].map((j) => ({ ...j.info })).reverse();
  }

  /** Waits until the job completes, `timeoutMs` passes or `signal` aborts (rejects). */
  async wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<JobInfo> {
    const job = this.#job(id);
    signal.throwIfAborted();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    const timeout = new Promise<void>((res) => timer = setTimeout(res, timeoutMs));
    try {
      await Promise.race([job.finished, timeout, aborted]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort!);
    }
    return { ...job.info };
  }

  /**
   * Calls `listener` with each chunk of the job's output from now on, until the returned
   * function is called. Throws ToolError for an unknown id.
   */
  watch(id: string, listener: OutputListener): () => void {
    const { listeners } = this.#job(id);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Writes `bytes` to the job's stdin. A ToolError when the job has no stdin or it is closed
   * (the job ended).
   */
  async write(id: string, bytes: Uint8Array): Promise<void> {
    const job = this.#job(id);
    if (!job.stdin) throw new ToolError(`Job ${id} was started without stdin`);
    try {
      await job.stdin.write(bytes);
    } catch (err) {
      throw new ToolError(`Cannot write to job ${id}: ${(err as Error).message}`);
    }
  }

  /** The job's output so far, head and tail kept when longer than the shell.run cap. */
  async output(id: string): Promise<{ text: string; truncated: boolean }> {
    const job = this.#job(id);
    const out = new CappedOutput(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
    for await (const chunk of await this.#scratch.open(job.info.outputPath)) out.push(chunk);
    return { text: out.text(), truncated: out.truncated };
  }

  /**
   * Stops the job: SIGTERM to its process group, SIGKILL to the group after the stop grace or
   * once the shell is gone (for children that ignore SIGTERM). Returns the job as it ended.
   */
  async stop(id: string): Promise<JobInfo & { wasRunning: boolean }> {
    const job = this.#job(id);
    const wasRunning = job.info.status === "running";
    if (wasRunning) {
      signalJob(job, "SIGTERM");
      await settleWithin(job.finished, this.#stopGraceMs);
    }
    signalJob(job, "SIGKILL");
    await job.finished;
    return { ...job.info, wasRunning };
  }

  /** Kills every job's process group, waits for the shells, and removes the output folder. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const jobs = [...this.#jobs.values()];
    for (const job of jobs) signalJob(job, "SIGKILL");
    await Promise.all(jobs.map((j) => j.finished));
    await Promise.all(jobs.map((j) => j.live?.copy.cancel()));
    const dir = await this.#dir?.catch(() => undefined);
    if (dir !== undefined) await this.#scratch.remove(dir).catch(() => {});
  }

  #job(id: string): Job {
    const job = this.#jobs.get(id);
    if (!job) throw new ToolError(`Unknown task id ${id}`, this.#knownIds());
    return job;
  }

  #knownIds(): string {
    const ids = [...this.#jobs.keys()];
    return ids.length ? `Known task ids: ${ids.join(", ")}` : "No background tasks were started";
  }

  #newId(): string {
    for (;;) {
      const id = `b${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
      if (!this.#jobs.has(id)) return id;
    }
  }
}

/** The session's JobRegistry from its resources (`JOBS_RESOURCE`), created on first use. */
export function jobRegistryOf(ctx: ToolContext): JobRegistry {
  const resources = resourcesOf(ctx);
  let reg = resources.get(JOBS_RESOURCE);
  if (!(reg instanceof JobRegistry)) {
    reg = new JobRegistry({ scratch: scratchOf(ctx) });
    resources.set(JOBS_RESOURCE, reg);
  }
  return reg;
}

interface Copy {
  /** Resolves when both pipes closed (or were cancelled) and every chunk is in the file. */
  done: Promise<void>;
  /** Stops reading; pending reads end at once. */
  cancel(): Promise<void>;
}

/**
 * Copies stdout and stderr into `file` in arrival order, telling `listeners` about each chunk;
 * closes the file when both pipes close.
 */
function copyOutput(
  child: GroupChild,
  file: ScratchWriter,
  listeners: Set<OutputListener>,
): Copy {
  let writes = Promise.resolve();
  const reading = readPipes(child, (stream, chunk) => {
    for (const listener of listeners) listener(stream, chunk);
    writes = writes.then(() => file.write(chunk));
  });
  const done = reading.done.then(() => writes).finally(() => file.close());
  const cancel = async () => {
    await reading.cancel();
    await done;
  };
  return { done, cancel };
}

/** Sends `sig` to the job's whole process group; does nothing when it is already gone. */
function signalJob(job: Job, sig: Deno.Signal): void {
  signalGroup({ pid: job.info.pid, kill: (s) => job.live?.child.kill(s) }, sig);
}
