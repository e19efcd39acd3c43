/**
 * Interactive command sessions (Codex's `exec_command` with `yield_time_ms` and `write_stdin`).
 * A session is a background job of the session's JobRegistry (so it shows in `/ps`, `/stop`
 * ends it, and it dies with the session) started with a stdin pipe; with `tty` the command runs
 * under `script`, which gives it a pseudo-terminal inside the same sandbox wrapper. Each call
 * waits up to its yield for output, then returns what arrived since the previous call.
 */
import { ToolError } from "../errors.ts";
import { CappedOutput, OUTPUT_KEEP_BYTES } from "./_capped_output.ts";
import { preparedProcess, sandboxedSpawn } from "./_sandboxed_spawn.ts";
import type { ToolContext } from "./capability.ts";
import { resourceKey, resourcesOf } from "./resources.ts";
import { jobRegistryOf } from "./shell_jobs.ts";
import { signalGroup } from "./process_group.ts";

/** Yield when `exec_command` gives none (Codex's default). */
export const DEFAULT_EXEC_YIELD_MS = 10_000;
/** Yield when `write_stdin` gives none (Codex's default). */
const DEFAULT_WRITE_YIELD_MS = 250;
/** Bounds of a yield, as Codex clamps them. */
const MIN_YIELD_MS = 250;
const MAX_YIELD_MS = 30_000;
/** A poll that sends nothing waits at least this long, so polling loops do not spin. */
const MIN_EMPTY_POLL_MS = 5_000;
/** Output cap when the call gives none, in tokens (4 bytes each, as Codex estimates). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Environment of a session's process: no colours or pagers, as Codex sets for its sessions. */
const SESSION_ENV = { TERM: "dumb", NO_COLOR: "1", PAGER: "cat", GIT_PAGER: "cat" };

interface ExecSession {
  jobId: string;
  tty: boolean;
  /** Output since the last read; swapped for an empty one at each read. */
  pending: CappedOutput;
  /** Where progress goes while a call waits on the session; none between calls. */
  progress?: (text: string) => void;
  decoder: TextDecoder;
}

/** The session's exec sessions by their numeric id; the jobs themselves live in JobRegistry. */
class ExecSessions {
  readonly byId = new Map<number, ExecSession>();
  #next = 1000;
  add(session: ExecSession): number {
    const id = this.#next++;
    this.byId.set(id, session);
    return id;
  }
}

const SESSIONS_RESOURCE = resourceKey<ExecSessions>("tools.exec_sessions");

function sessionsOf(ctx: ToolContext): ExecSessions {
  const resources = resourcesOf(ctx);
  let sessions = resources.get(SESSIONS_RESOURCE);
  if (!sessions) {
    sessions = new ExecSessions();
    resources.set(SESSIONS_RESOURCE, sessions);
  }
  return sessions;
}

/** What one call on a session saw. */
export interface SessionChunk {
  output: CappedOutput;
  /** Null while the process runs. */
  exitCode: number | null;
  /** The id to poll with while the process runs; null once it exited. */
  sessionId: number | null;
}

/**
 * Starts `argv` (the shell and its command line) as a session in `cwd` and waits up to
 * `yieldMs` (clamped) for it to exit. Aborting the wait ends the process, as the model never
 * learns its id.
 */
export async function startSession(
  argv: string[],
  opts: { cwd: string; escalated: boolean; tty: boolean; yieldMs?: number; command: string },
  ctx: ToolContext,
): Promise<SessionChunk> {
  const env = { ...ctx.env, ...SESSION_ENV };
  const wrapped = opts.tty ? ptyArgv(argv) : argv;
  const how = { cwd: opts.cwd, env, escalated: opts.escalated };
  // Without a terminal the command can run in the sandbox the session prepared ahead, as
  // shell.run's commands do; a tty session needs a stdin pipe, which that sandbox has not.
  const started = opts.tty ? undefined : await preparedProcess(wrapped, how, ctx);
  const spawn = started ? undefined : await sandboxedSpawn(wrapped, how, ctx);
  if (ctx.signal.aborted && started) signalGroup(started, "SIGKILL");
  ctx.signal.throwIfAborted();
  const session: ExecSession = {
    jobId: "",
    tty: opts.tty,
    pending: newPending(),
    decoder: new TextDecoder(),
  };
  const job = await jobRegistryOf(ctx).start({
    spawn,
    started,
    command: opts.command,
    cwd: opts.cwd,
    description: opts.tty ? "interactive session (tty)" : "interactive session",
    stdin: opts.tty,
    onOutput: (_stream, chunk) => {
      session.pending.push(chunk);
      const text = session.decoder.decode(chunk, { stream: true });
      if (text) session.progress?.(text);
    },
  }).catch((err) => {
    if (!opts.tty || !(err instanceof ToolError)) throw err;
    throw new ToolError(
      `Cannot start a pseudo-terminal: ${err.message}`,
      "tty sessions need the `script` program (util-linux); install it, or run without tty",
    );
  });
  session.jobId = job.id;
  const id = sessionsOf(ctx).add(session);
  try {
    return await collect(id, session, clampYield(opts.yieldMs ?? DEFAULT_EXEC_YIELD_MS), ctx);
  } catch (err) {
    await jobRegistryOf(ctx).stop(job.id).catch(() => {});
    sessionsOf(ctx).byId.delete(id);
    throw err;
  }
}

/**
 * Waits up to `yieldMs` for the session's process to exit, reporting its output as progress,
 * and takes the output that arrived meanwhile. An exited session is forgotten.
 */
async function collect(
  id: number,
  session: ExecSession,
  yieldMs: number,
  ctx: ToolContext,
): Promise<SessionChunk> {
  const jobs = jobRegistryOf(ctx);
  session.progress = (text) => ctx.progress({ stream: "stdout", text });
  let info;
  try {
    info = await jobs.wait(session.jobId, yieldMs, ctx.signal);
  } finally {
    session.progress = undefined;
  }
  const output = session.pending;
  session.pending = newPending();
  if (info.status === "running") return { output, exitCode: null, sessionId: id };
  sessionsOf(ctx).byId.delete(id);
  return { output, exitCode: info.exitCode ?? 128 + signalNumber(info.signal), sessionId: null };
}

/** What `shell.write_stdin` takes (its schema is in write_stdin.ts). */
interface WriteStdinInput {
  session_id: number;
  chars?: string;
  yield_ms?: number;
  max_output_tokens?: number;
}

/** Result of `shell.write_stdin`: the fields of a session's `shell.run` result. */
export interface WriteStdinOutput {
  command: string;
  chars: string;
  /** Null while the process runs. */
  exitCode: number | null;
  /** The id to poll with while the process runs; null once it exited. */
  sessionId: number | null;
  output: string;
  originalTokenCount: number;
  durationMs: number;
}

/** Runs `shell.write_stdin` (see write_stdin.ts): sends characters, returns the new output. */
export async function writeStdin(
  input: WriteStdinInput,
  ctx: ToolContext,
): Promise<WriteStdinOutput> {
  const sessions = sessionsOf(ctx);
  const session = sessions.byId.get(input.session_id);
  if (!session) {
    const known = [...sessions.byId.keys()].join(", ");
    throw new ToolError(
      `Unknown process id ${input.session_id}`,
      known ? `Running sessions: ${known}` : "No session is running; start one with exec_command",
    );
  }
  const chars = input.chars ?? "";
  if (chars && !session.tty) {
    throw new ToolError(
      "stdin is closed for this session; rerun exec_command with tty=true to keep stdin open",
    );
  }
  const started = performance.now();
  const jobs = jobRegistryOf(ctx);
  const running = jobs.get(session.jobId).status === "running";
  if (chars && running) await jobs.write(session.jobId, new TextEncoder().encode(chars));
  const wanted = input.yield_ms ?? DEFAULT_WRITE_YIELD_MS;
  const yieldMs = clampYield(chars ? wanted : Math.max(wanted, MIN_EMPTY_POLL_MS));
  const chunk = await collect(input.session_id, session, yieldMs, ctx);
  const capped = capTokens(chunk.output.text(), input.max_output_tokens);
  return {
    command: jobs.get(session.jobId).command,
    chars,
    exitCode: chunk.exitCode,
    sessionId: chunk.sessionId,
    output: capped.text,
    originalTokenCount: capped.originalTokens,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  };
}

/**
 * Keeps at most `maxTokens` (4 bytes each) of `text`: its start and end, with Codex's
 * `…N tokens truncated…` marker between.
 */
export function capTokens(
  text: string,
  maxTokens = DEFAULT_MAX_OUTPUT_TOKENS,
): { text: string; originalTokens: number } {
  const bytes = new TextEncoder().encode(text);
  const originalTokens = Math.ceil(bytes.length / 4);
  const budget = Math.max(0, Math.floor(maxTokens) * 4);
  if (bytes.length <= budget) return { text, originalTokens };
  const half = Math.floor(budget / 2);
  const decoder = new TextDecoder();
  const head = decoder.decode(bytes.subarray(0, half)).replace(/\uFFFD$/, "");
  const tail = decoder.decode(bytes.subarray(bytes.length - half)).replace(/^\uFFFD/, "");
  const removed = originalTokens - Math.ceil((half * 2) / 4);
  return { text: `${head}…${removed} tokens truncated…${tail}`, originalTokens };
}

/** `argv` run in a pseudo-terminal by `script` (util-linux on Linux, BSD elsewhere). */
function ptyArgv(argv: string[]): string[] {
  if (Deno.build.os === "windows") {
    throw new ToolError("tty sessions are not available on Windows", "Run without tty");
  }
  const line = argv.map(shQuote).join(" ");
  if (Deno.build.os === "linux") return ["script", "-qfec", line, "/dev/null"];
  return ["script", "-q", "/dev/null", "sh", "-c", line];
}

function clampYield(ms: number): number {
  return Math.min(Math.max(ms, MIN_YIELD_MS), MAX_YIELD_MS);
}

function newPending(): CappedOutput {
  return new CappedOutput(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
}

function signalNumber(signal: string | null): number {
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return signal ? numbers[signal] ?? 0 : 0;
}

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
