/**
 * Runs one hook command as the user's own command: `sh -c COMMAND` outside the model's sandbox,
 * in the session's working directory, with the user's environment (plus `CLAUDE_PROJECT_DIR`,
 * as Claude Code sets it), the event's JSON on stdin. It is killed, with anything it started,
 * when its timeout passes or the turn is cancelled; output past a cap is dropped.
 *
 * On Linux it runs under `bwrap --unshare-pid --die-with-parent` with the host bound read-write
 * (no other confinement): the hook's shell is the only child of the namespace's init, so when it
 * ends or is killed the kernel ends everything it started, `setsid` children included, which
 * killing its process group alone would miss. Without a working bwrap it runs as before, in a
 * process group of its own that is killed.
 */
import { CappedOutput, spawnInGroup, superviseChild } from "../tools/process_group.ts";
import { bwrapProgram, pidNamespaceWorks, underPidNamespace } from "./_hook_namespace.ts";

/** What a hook command did. */
export interface HookProcessResult {
  /** The exit code; null when it was killed or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not start. */
  error?: string;
}

/** How to run a hook command. */
export interface HookProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** The JSON object written to its stdin. */
  input: unknown;
  timeoutSec: number;
  /** Cancelling kills it; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The bwrap program; default `/usr/bin/bwrap` when it exists, else `bwrap` from PATH. */
  bwrap?: string;
}

/** Output kept of each stream (its start; a marker says how much was dropped). */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** How long pipes a finished hook left to a background child are still read. */
const PIPE_GRACE_MS = 200;

/** Runs `command` (see the module comment). */
export async function runHookCommand(
  command: string,
  opts: HookProcessOptions,
): Promise<HookProcessResult> {
  opts.signal?.throwIfAborted();
  const shell = [shellOf(), ...shellArgs(), command];
  if (Deno.build.os !== "linux") return await runProcess(shell, opts);
  const bwrap = opts.bwrap ?? await bwrapProgram();
  const result = await runProcess(underPidNamespace(bwrap, shell), opts);
  // bwrap that cannot set up the namespace says so and exits 1 before the hook starts.
  const notStarted = result.error !== undefined ||
    (result.code === 1 && result.stderr.startsWith("bwrap: ") && !await pidNamespaceWorks(bwrap));
  return notStarted ? await runProcess(shell, opts) : result;
}

/** Runs `argv` as a hook: its own process group, killed at the timeout or on cancel. */
async function runProcess(argv: string[], opts: HookProcessOptions): Promise<HookProcessResult> {
  let child: Deno.ChildProcess;
  try {
    child = spawnInGroup({
      cmd: argv[0],
      args: argv.slice(1),
      cwd: opts.cwd,
      env: opts.env,
      stdin: "piped",
    });
  } catch (error) {
    return { code: null, stdout: "", stderr: "", timedOut: false, error: (error as Error).message };
  }
  const out = {
    stdout: new CappedOutput(MAX_OUTPUT_BYTES, 0),
    stderr: new CappedOutput(MAX_OUTPUT_BYTES, 0),
  };
  void writeInput(child, opts.input);
  const end = await superviseChild(child, {
    timeoutMs: opts.timeoutSec * 1000,
    signal: opts.signal,
    graceMs: PIPE_GRACE_MS,
    onChunk: (stream, chunk) => out[stream].push(chunk),
  });
  return {
    code: end.killed ? null : end.status.code,
    stdout: out.stdout.text(),
    stderr: out.stderr.text(),
    timedOut: end.killed === "timeout",
  };
}

function shellOf(): string {
  return Deno.build.os === "windows" ? "cmd" : "sh";
}

function shellArgs(): string[] {
  return Deno.build.os === "windows" ? ["/d", "/s", "/c"] : ["-c"];
}

async function writeInput(child: Deno.ChildProcess, input: unknown): Promise<void> {
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(JSON.stringify(input) + "\n"));
    await writer.close();
  } catch {
    // The hook exited without reading its input; that is its business.
  }
}
