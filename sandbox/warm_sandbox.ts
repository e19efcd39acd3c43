/**
 * Command sandboxes prepared before the command they will run.
 *
 * Building a bubblewrap sandbox (user, mount, pid and network namespaces, the binds) costs more
 * than running a short command. So once a command ends, the session prepares the next one's
 * sandbox while the model thinks: bwrap, with the recipe a sandbox made for a command gets,
 * starts a small bash program (`_warm_runner.ts`) as the sandbox's pid 1, which says it is ready
 * and waits for one request on stdin. `take()` sends it; the runner starts the command in its own
 * process group, with stdin from /dev/null, the given working directory and exactly the given
 * environment, and stdout and stderr on the pipes the caller reads. When the command exits the
 * runner exits with its status, and the kernel ends every process left in the sandbox, as it
 * does for a sandbox made for the command.
 *
 * With `depth` above 1, that many are kept prepared or in use, so that commands coming faster
 * than one sandbox is prepared (a quick model's round trip is shorter than a preparation, and
 * parallel calls come at once) find theirs ready; each still serves one command.
 *
 * Each sandbox runs one command, never more: its private /tmp, processes, loopback sockets and
 * runner are gone before the next command starts in a fresh one, so one command cannot reach a
 * later one except through the writable roots, exactly as before. (A sandbox shared by all
 * commands would let one reach the next: it could write the runner's memory through
 * /proc/<pid>/mem and lower its limits with prlimit, both tried, and leave files in /tmp and
 * /dev, or ports in TIME_WAIT.)
 *
 * A prepared sandbox's binds were made for the writable roots and protected paths as they were
 * when it was prepared. If any of those changed since (a protected name created or replaced, a
 * symlink retargeted), `take()` discards it and the caller makes a sandbox for the command.
 */
import { HeldPaths, sameBut } from "./_held_paths.ts";
import { PLACEHOLDER_MODE } from "./placeholders.ts";
import {
  encodeRequest,
  READY,
  RUNNER_NAME,
  RUNNER_SCRIPT,
  UNSUPPORTED,
  warmable,
  type WarmRequest,
} from "./_warm_runner.ts";
import type { SpawnSpec } from "./types.ts";

export { RUNNER_NAME } from "./_warm_runner.ts";

/** How long a prepared sandbox waits for a command before it is ended (and its placeholders). */
const IDLE_MS = 30_000;
/** How long preparing may take before the sandbox is given up. */
const READY_TIMEOUT_MS = 10_000;
/** Preparations that fail in a row before the session stops preparing sandboxes. */
const MAX_FAILURES = 3;

/**
 * A command's process as the caller of `take()` gets it, and any started child as
 * lib/tools/process_group.ts supervises it; a `Deno.ChildProcess` is one too.
 */
export interface PreparedProcess {
  /** The host pid of the process group leader (for a prepared sandbox, its bwrap). */
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<Deno.CommandStatus>;
  kill(signal?: Deno.Signal): void;
}

/** Options of `WarmSandboxes`. */
export interface WarmOptions {
  /** What to spawn for a sandbox whose command is `runner`: the launcher, bwrap and the recipe. */
  prepare(runner: string[]): Promise<SpawnSpec>;
  /** Paths the binds depend on: the writable roots and every protected path under them. */
  watched: string[];
  /**
   * Called when a sandbox it prepared has ended and no other is being prepared to follow it:
   * then the placeholders may be removable (the guard finds out which runs still go on).
   */
  ended(): void;
  /** How long a prepared sandbox waits for a command; default `IDLE_MS`. */
  idleMs?: number;
  /** Put before every spawned argv (tests run the sandboxes as another user). */
  launcherPrefix?: string[];
  /**
   * How many sandboxes to keep prepared ahead; default 1. More let commands that come faster
   * than one sandbox is prepared (a quick model, parallel calls) find theirs ready.
   */
  depth?: number;
}

interface Prepared {
  child: Deno.ChildProcess;
  /** The watched paths as they were once the sandbox was ready. */
  held: HeldPaths;
}

/** A sandbox being prepared, or prepared, for a command to come. */
interface Slot {
  promise: Promise<Prepared | undefined>;
  /** Whether the sandbox has said it is ready. */
  ready: boolean;
}

/** The session's sandboxes for its next commands, prepared `depth` at a time. */
export class WarmSandboxes {
  readonly #opts: WarmOptions;
  readonly #depth: number;
  /** Sandboxes prepared or being prepared, oldest first. */
  #slots: Slot[] = [];
  /** Settles when the last command taken has ended and the next sandboxes are being prepared. */
  #running: Promise<unknown> = Promise.resolve();
  /** Commands running that found their sandbox ready (not in a burst). */
  #calm = 0;
  #failures = 0;
  #disabled = false;
  #closed = false;
  #idle: ReturnType<typeof setTimeout> | undefined;
  /** Sandboxes being prepared until they say they are ready. */
  readonly #starting = new Set<Deno.ChildProcess>();

  constructor(opts: WarmOptions) {
    this.#opts = opts;
    this.#depth = Math.max(1, opts.depth ?? 1);
  }

  /**
   * Starts `req` in the oldest prepared sandbox (waiting for it when it is still being prepared,
   * or preparing one now) and returns its process: stdin closed, stdout and stderr piped, its own
   * process group. Undefined when there is none for it: the caller makes a sandbox itself.
   */
  async take(req: WarmRequest): Promise<PreparedProcess | undefined> {
    if (this.#closed || !warmable(req)) return undefined;
    if (this.#slots.length === 0) this.#fill(1);
    const slot = this.#slots.shift()!;
    // Commands in a burst (one straight after another, or parallel calls) wait for their
    // sandbox; then the next ones are prepared while this command runs, not after it.
    const burst = !slot.ready;
    clearTimeout(this.#idle);
    const prepared = await slot.promise;
    if (!prepared) {
      this.#fill(1);
      return undefined;
    }
    const unchanged = await prepared.held.unchanged();
    prepared.held.release();
    const { child } = prepared;
    if (!unchanged || this.#closed || !(await this.#send(child, req))) {
      await this.#discard(child);
      // The others were most likely prepared before the same change.
      if (!unchanged) await this.retire();
      this.#fill(1);
      return undefined;
    }
    if (!burst) this.#calm++;
    this.#running = child.status.finally(() => {
      if (!burst) this.#calm--;
      // The next sandboxes keep the placeholders; once they end, they say so.
      this.#fill();
      if (this.#slots.length === 0) this.#opts.ended();
    });
    this.#fill();
    // A fresh stream: the runner's ready line was read from the first, which a body cannot use.
    const stdout = child.stdout.pipeThrough(new TransformStream<Uint8Array, Uint8Array>());
    const kill = (signal?: Deno.Signal) => child.kill(signal);
    return { pid: child.pid, stdout, stderr: child.stderr, status: child.status, kill };
  }

  /**
   * Resolves true once a sandbox is prepared for the next command (after the running one
   * ended), false when none will be.
   */
  async ready(): Promise<boolean> {
    await this.#running;
    const first = this.#slots[0];
    return first !== undefined && (await first.promise) !== undefined;
  }

  /** Ends the prepared sandboxes, if any, and waits until their processes are gone. */
  async retire(): Promise<void> {
    clearTimeout(this.#idle);
    const slots = this.#slots;
    this.#slots = [];
    for (const slot of slots) {
      const prepared = await slot.promise;
      if (prepared) {
        prepared.held.release();
        await this.#discard(prepared.child);
      }
    }
  }

  /** Ends the prepared sandboxes and prepares no more. */
  async close(): Promise<void> {
    this.#closed = true;
    // Those still starting would be waited for: end them now.
    for (const child of this.#starting) if (!exited.has(child)) kill(child);
    await this.retire();
  }

  /**
   * Prepares sandboxes until `depth` are prepared or under way, and at least `min`. With depth 1,
   * none while a command that found its sandbox ready runs: its successor is prepared once it
   * ends, beside the model's answer. With more, the refill starts as the command does, while the
   * agent waits for it anyway: spawning forks the agent, which stalls it for a few milliseconds
   * that would otherwise fall between the command's end and the next model request.
   */
  #fill(min = 0): void {
    const want = Math.max(min, this.#depth - (this.#depth === 1 && this.#calm > 0 ? 1 : 0));
    while (!this.#closed && !this.#disabled && this.#slots.length < want) this.#prepareOne();
  }

  #prepareOne(): void {
    const slot: Slot = { promise: Promise.resolve(undefined), ready: false };
    slot.promise = this.#start().catch(() => undefined).then((prepared) => {
      this.#failures = prepared ? 0 : this.#failures + 1;
      if (this.#failures >= MAX_FAILURES) this.#disabled = true;
      if (prepared && this.#slots.includes(slot)) {
        slot.ready = true;
        this.#waitIdle();
        prepared.child.status.then(() => this.#died(slot, prepared));
      }
      return prepared;
    });
    this.#slots.push(slot);
  }

  /** A prepared sandbox ended before a command came (killed from outside): prepare another. */
  async #died(slot: Slot, prepared: Prepared): Promise<void> {
    const at = this.#slots.indexOf(slot);
    if (at < 0) return;
    this.#slots.splice(at, 1);
    prepared.held.release();
    await this.#discard(prepared.child);
    if (++this.#failures >= MAX_FAILURES) this.#disabled = true;
    this.#fill(1);
  }

  async #start(): Promise<Prepared | undefined> {
    const before = await HeldPaths.hold(this.#opts.watched);
    if (!before) return undefined;
    try {
      return await this.#spawn(before);
    } finally {
      before.release();
    }
  }

  async #spawn(before: HeldPaths): Promise<Prepared | undefined> {
    const spec = await this.#opts.prepare(["/bin/bash", "-c", RUNNER_SCRIPT, RUNNER_NAME]);
    const [cmd, ...args] = [...(this.#opts.launcherPrefix ?? []), spec.cmd, ...spec.args];
    const child = new Deno.Command(cmd, {
      args,
      cwd: "/",
      clearEnv: true,
      env: spec.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    child.status.then(() => exited.add(child));
    this.#starting.add(child);
    if (this.#closed) kill(child);
    const said = await withTimeout(readToken(child.stdout), READY_TIMEOUT_MS);
    this.#starting.delete(child);
    const held = said === READY ? await HeldPaths.hold(this.#opts.watched) : undefined;
    // Unchanged while bwrap made its binds, but for the placeholders made for it.
    if (!held || !sameBut(before, held, PLACEHOLDER_MODE) || this.#closed) {
      held?.release();
      if (said === UNSUPPORTED) this.#disabled = true;
      await this.#discard(child);
      return undefined;
    }
    // Waiting for a command must not keep the agent from exiting; `take()` refs it again.
    child.unref();
    return { child, held };
  }

  /** Ends the prepared sandboxes once none was taken for the idle time. */
  #waitIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#slots.length > 0) this.retire().catch(() => {});
    }, this.#opts.idleMs ?? IDLE_MS);
    Deno.unrefTimer(this.#idle);
  }

  /** Sends the request; false when the sandbox ended before it could take it. */
  async #send(child: Deno.ChildProcess, req: WarmRequest): Promise<boolean> {
    if (exited.has(child)) return false;
    child.ref();
    const writer = child.stdin.getWriter();
    try {
      await writer.write(encodeRequest(req));
      await writer.close();
      return true;
    } catch {
      writer.releaseLock();
      return false;
    }
  }

  /** Kills a sandbox that never got a command and waits for it to end. */
  async #discard(child: Deno.ChildProcess): Promise<void> {
    child.ref();
    // Not once it was reaped: its pid, the group's id, may be another's by now.
    if (!exited.has(child)) kill(child);
    await child.stdin.close().catch(() => {});
    await Promise.all([child.stdout.cancel(), child.stderr.cancel()]).catch(() => {});
    await child.status;
    this.#opts.ended();
  }
}

/** Kills the process group of a prepared sandbox: its launcher and bwrap, and so all in it. */
function kill(child: Deno.ChildProcess): void {
  try {
    Deno.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Prepared sandboxes whose process has ended. */
const exited = new WeakSet<Deno.ChildProcess>();

/** Reads the runner's first line from `stream` and lets go of it; "" when it ended first. */
async function readToken(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let said = "";
  try {
    while (!said.includes("\n")) {
      const chunk = await reader.read();
      if (chunk.done) return "";
      said += decoder.decode(chunk.value, { stream: true });
    }
    return said;
  } finally {
    reader.releaseLock();
  }
}

async function withTimeout(promise: Promise<string>, ms: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => timer = setTimeout(() => resolve(""), ms));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
