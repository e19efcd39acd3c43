/**
 * Command sandboxes prepared before the command they will run.
 *
 * Building a bubblewrap sandbox (user, mount, pid and network namespaces, the binds) costs more
 * than running a short command. So once a command ends, the session prepares the next one's
 * sandbox while the model thinks: bwrap, with the recipe a sandbox made for a command gets,
 * starts `RUNNER` (bash) as the sandbox's pid 1, which says it is ready and waits for one request
 * on stdin. `take()` sends it; the runner starts the command in its own process group, with
 * stdin from /dev/null, the given working directory and exactly the given environment, and
 * stdout and stderr on the pipes the caller reads. When the command exits the runner exits with
 * its status, and the kernel ends every process left in the sandbox, as it does for a sandbox
 * made for the command.
 *
 * Each sandbox runs one command, never more: its private /tmp, processes, loopback sockets,
 * keyrings and runner are gone before the next command starts in a fresh one, so one command
 * cannot reach a later one except through the writable roots, exactly as before. (A sandbox
 * shared by every command was measured to allow much more: a command can write its parent's
 * memory through /proc/<pid>/mem, lower its limits with prlimit, and leave files, sockets in
 * TIME_WAIT and keys behind.)
 *
 * A prepared sandbox's binds were made for the writable roots and protected paths as they were
 * when it was prepared. If any of those changed since (a protected name created or replaced, a
 * symlink retargeted), `take()` discards it and the caller makes a sandbox for the command.
 */
import type { SpawnSpec } from "./command_sandbox.ts";
import { HeldPaths, sameBut } from "./_held_paths.ts";
import { PLACEHOLDER_MODE } from "./placeholders.ts";

/** How long a prepared sandbox waits for a command before it is ended (and its placeholders). */
export const IDLE_MS = 30_000;
/** How long preparing may take before the sandbox is given up. */
const READY_TIMEOUT_MS = 10_000;
/** Preparations that fail in a row before the session stops preparing sandboxes. */
const MAX_FAILURES = 3;

const READY = "oi-ready\n";
const UNSUPPORTED = "oi-unsupported\n";
/** `$0` of the runner, which shows as the sandbox's pid 1 in `ps`. */
export const RUNNER_NAME = "oi-prepared-sandbox";

/**
 * The runner. The request is `<size>\n` and `size` bytes: a line `<n> <nenv> <len>...` then the
 * n fields back to back (cwd, nenv `NAME=value` entries, the argv), read in one go with `-N` in
 * the C locale, where lengths count bytes. The command runs in a subshell, so that `exec` leaves
 * SHLVL alone, started with job control on for its own process group, then off, so that `wait`
 * returns only when it ends and reports nothing. The runner's own messages go to /dev/null.
 */
const SCRIPT = `exec 3>&2 2>/dev/null
LC_ALL=C
unset PATH PWD OLDPWD SHLVL
if (( BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 401 )); then printf '${UNSUPPORTED}'; exit 125; fi
printf '${READY}'
IFS= read -r size && IFS= read -r -N "$size" body && (( \${#body} == size )) || exit 125
set -f
IFS=' ' lens=(\${body%%$'\\n'*})
body=\${body#*$'\\n'}
fields=() at=0
for ((i = 2; i < lens[0] + 2; i++)); do fields+=("\${body:at:lens[i]}"); ((at += lens[i])); done
(( at == \${#body} )) || exit 125
nenv=\${lens[1]}
set -m
(
  exec </dev/null 2>&3 3>&-
  cd -P -- "\${fields[0]}" || exit 1
  (( nenv == 0 )) || export -- "\${fields[@]:1:nenv}" || exit 125
  exec -- "\${fields[@]:1+nenv}"
) &
set +m
wait "$!"
`;

/** A command's process as the caller of `take()` gets it; a `Deno.ChildProcess` is one too. */
export interface PreparedProcess {
  /** The host pid of the process group leader (the sandbox's bwrap). */
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<Deno.CommandStatus>;
  kill(signal?: Deno.Signal): void;
}

/** A command for a prepared sandbox. */
export interface WarmRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Options of `WarmSandboxes`. */
export interface WarmOptions {
  /** What to spawn for a sandbox whose command is `runner`: the launcher, bwrap and the recipe. */
  prepare(runner: string[]): Promise<SpawnSpec>;
  /** Paths the binds depend on: the writable roots and every protected path under them. */
  watched: string[];
  /** Called once the process of a prepared sandbox has ended, whether it ran a command or not. */
  ended(): void;
  /** How long a prepared sandbox waits for a command; default `IDLE_MS`. */
  idleMs?: number;
  /** Put before every spawned argv (tests run the sandboxes as another user). */
  launcherPrefix?: string[];
}

interface Prepared {
  child: Deno.ChildProcess;
  /** The watched paths as they were once the sandbox was ready. */
  held: HeldPaths;
}

/** The session's sandbox for its next command, prepared one at a time. */
export class WarmSandboxes {
  readonly #opts: WarmOptions;
  #next: Promise<Prepared | undefined> | undefined;
  /** Settles when the last command taken has ended and the next sandbox is being prepared. */
  #running: Promise<unknown> = Promise.resolve();
  #failures = 0;
  #disabled = false;
  #closed = false;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: WarmOptions) {
    this.#opts = opts;
  }

  /**
   * Starts `req` in the prepared sandbox (waiting for it when it is still being prepared, or
   * preparing one now) and returns its process: stdin closed, stdout and stderr piped, its own
   * process group. Undefined when there is none for it: the caller makes a sandbox itself.
   */
  async take(req: WarmRequest): Promise<PreparedProcess | undefined> {
    if (this.#closed || !warmable(req)) return undefined;
    if (this.#next === undefined) this.#prepare();
    const next = this.#next;
    this.#next = undefined;
    clearTimeout(this.#idle);
    const prepared = await next;
    if (!prepared) {
      this.#prepare();
      return undefined;
    }
    const unchanged = await prepared.held.unchanged();
    prepared.held.release();
    const { child } = prepared;
    if (!unchanged || this.#closed || !(await this.#send(child, req))) {
      await this.#discard(child);
      this.#prepare();
      return undefined;
    }
    this.#running = child.status.finally(() => {
      this.#opts.ended();
      this.#prepare();
    });
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
    return (await this.#next) !== undefined;
  }

  /** Ends the prepared sandbox, if any, and waits until its process is gone. */
  async retire(): Promise<void> {
    clearTimeout(this.#idle);
    const next = this.#next;
    this.#next = undefined;
    const prepared = await next;
    if (prepared) {
      prepared.held.release();
      await this.#discard(prepared.child);
    }
  }

  /** Ends the prepared sandbox and prepares no more. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.retire();
  }

  #prepare(): void {
    if (this.#closed || this.#disabled || this.#next) return;
    const next = this.#start().catch(() => undefined).then((prepared) => {
      this.#failures = prepared ? 0 : this.#failures + 1;
      if (this.#failures >= MAX_FAILURES) this.#disabled = true;
      if (prepared && this.#next === next) {
        this.#waitIdle(next);
        prepared.child.status.then(() => this.#died(next, prepared));
      }
      return prepared;
    });
    this.#next = next;
  }

  /** A prepared sandbox ended before a command came (killed from outside): prepare another. */
  async #died(next: Promise<Prepared | undefined>, prepared: Prepared): Promise<void> {
    if (this.#next !== next) return;
    this.#next = undefined;
    clearTimeout(this.#idle);
    prepared.held.release();
    await this.#discard(prepared.child);
    if (++this.#failures >= MAX_FAILURES) this.#disabled = true;
    this.#prepare();
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
    const spec = await this.#opts.prepare(["/bin/bash", "-c", SCRIPT, RUNNER_NAME]);
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
    const said = await withTimeout(readToken(child.stdout), READY_TIMEOUT_MS);
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

  #waitIdle(next: Promise<Prepared | undefined>): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#next === next) this.retire().catch(() => {});
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
    try {
      // Not once it was reaped: its pid, the group's id, may be another's by now.
      if (!exited.has(child)) Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    await child.stdin.close().catch(() => {});
    await Promise.all([child.stdout.cancel(), child.stderr.cancel()]).catch(() => {});
    await child.status;
    this.#opts.ended();
  }
}

/** Prepared sandboxes whose process has ended. */
const exited = new WeakSet<Deno.ChildProcess>();

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Names bash does not pass through `export` unchanged: read-only ones, ones whose value bash
 * computes, and ones that change how it runs the command.
 */
const BASH_SPECIAL = new Set([
  "BASHOPTS",
  "BASHPID",
  "BASH_ALIASES",
  "BASH_ARGC",
  "BASH_ARGV",
  "BASH_ARGV0",
  "BASH_CMDS",
  "BASH_COMPAT",
  "BASH_LINENO",
  "BASH_MONOSECONDS",
  "BASH_REMATCH",
  "BASH_SOURCE",
  "BASH_SUBSHELL",
  "BASH_VERSINFO",
  "BASH_XTRACEFD",
  "DIRSTACK",
  "EPOCHREALTIME",
  "EPOCHSECONDS",
  "EUID",
  "EXECIGNORE",
  "FUNCNAME",
  "FUNCNEST",
  "GROUPS",
  "HISTCMD",
  "LINENO",
  "PIPESTATUS",
  "POSIXLY_CORRECT",
  "PPID",
  "RANDOM",
  "SECONDS",
  "SHELLOPTS",
  "SRANDOM",
  "UID",
  "_",
]);

/**
 * Whether the runner can start `req` exactly as asked: no NUL byte anywhere, a PATH to find the
 * program with, and only variable names bash exports unchanged.
 */
export function warmable(req: WarmRequest): boolean {
  if (req.argv.length === 0 || req.env.PATH === undefined) return false;
  const texts = [req.cwd, ...req.argv, ...Object.values(req.env)];
  if (texts.some((text) => text.includes("\0"))) return false;
  return Object.keys(req.env).every((name) => NAME.test(name) && !BASH_SPECIAL.has(name));
}

/** The request the runner reads (see `SCRIPT`). */
export function encodeRequest(req: WarmRequest): Uint8Array {
  const encoder = new TextEncoder();
  const env = Object.entries(req.env).map(([name, value]) => `${name}=${value}`);
  const fields = [req.cwd, ...env, ...req.argv].map((field) => encoder.encode(field));
  const head = encoder.encode(
    `${fields.length} ${env.length} ${fields.map((f) => f.length).join(" ")}\n`,
  );
  const size = head.length + fields.reduce((sum, f) => sum + f.length, 0);
  const prefix = encoder.encode(`${size}\n`);
  const out = new Uint8Array(prefix.length + size);
  let at = 0;
  for (const part of [prefix, head, ...fields]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

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
