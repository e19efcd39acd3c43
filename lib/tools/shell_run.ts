import { z } from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import { CappedOutput } from "./_capped_output.ts";
import { displayPath, resolvePath } from "./_paths.ts";

/** Timeout used when the call gives none. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Bytes of output kept from the start and, separately, from the end of a long output. */
export const OUTPUT_KEEP_BYTES = 128 * 1024;
/** setTimeout fires at once for longer delays. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long to keep reading after the shell exits, for output from children still running. */
const DRAIN_GRACE_MS = 250;

/** Input of `shell.run`. */
export const shellRunInput = z.object({
  command: z.string().min(1).describe("Shell command line to run"),
  cwd: z.string().optional().describe("Working directory, absolute or relative to the workspace"),
  timeout_ms: z.number().positive().optional().describe("Kill the command after this long"),
  min_timeout_ms: z.number().nonnegative().optional()
    .describe("Lower bound for the timeout; raises `timeout_ms` (or the default), never lowers it"),
  shell: z.string().min(1).optional().describe("Shell program; default bash"),
  login: z.boolean().optional().describe("Run as a login shell (-lc); default false"),
});

/** Result of `shell.run`. A non-zero exit is a result, not an error. */
export interface ShellRunOutput {
  command: string;
  /** Working directory, relative to the workspace when inside it. */
  cwd: string;
  /** Null when the process was killed (timeout) before it exited. */
  exitCode: number | null;
  /** Combined stdout and stderr, in arrival order. */
  output: string;
  durationMs: number;
  timedOut: boolean;
  /** The timeout that applied. */
  timeoutMs: number;
  truncated: boolean;
}

/** Runs a command line in a shell, with a timeout and capped combined output. */
export const shellRun = defineCapability({
  id: "shell.run",
  input: shellRunInput,
  mutates: true,
  async run(input, ctx): Promise<ShellRunOutput> {
    const cwd = resolvePath(ctx.cwd, input.cwd ?? ".");
    await assertDirectory(cwd, input.cwd ?? ".");
    ctx.signal.throwIfAborted();
    const wanted = Math.max(input.timeout_ms ?? DEFAULT_TIMEOUT_MS, input.min_timeout_ms ?? 0);
    const timeoutMs = Math.min(wanted, MAX_TIMER_MS);
    const shell = input.shell ?? "bash";
    const started = performance.now();
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(shell, {
        args: [...shellArgs(shell, input.login ?? false), input.command],
        cwd,
        clearEnv: true,
        env: ctx.env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: Deno.build.os !== "windows",
      }).spawn();
    } catch (err) {
      throw new ToolError(
        `Cannot start shell "${shell}": ${(err as Error).message}`,
        input.shell ? "Omit `shell` to use the default shell" : "Check that bash is installed",
      );
    }
    const out = new CappedOutput(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
    const killed = watchProcess(child, timeoutMs, ctx.signal);
    const status = await collect(child, out);
    killed.stop();
    if (killed.reason === "abort") {
      throw ctx.signal.reason ?? new DOMException("Aborted", "AbortError");
    }
    return {
      command: input.command,
      cwd: displayPath(ctx.cwd, cwd),
      exitCode: killed.reason === "timeout" ? null : status.code,
      output: out.text(),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      timedOut: killed.reason === "timeout",
      timeoutMs,
      truncated: out.truncated,
    };
  },
});

/** Arguments placed before the command line for the given shell program. */
export function shellArgs(shell: string, login: boolean): string[] {
  const name = (shell.split(/[\\/]/).pop() ?? shell).toLowerCase().replace(/\.exe$/, "");
  if (name === "pwsh" || name === "powershell") return ["-NoProfile", "-Command"];
  if (name === "cmd") return ["/c"];
  return [login ? "-lc" : "-c"];
}

async function assertDirectory(abs: string, given: string): Promise<void> {
  try {
    if ((await Deno.stat(abs)).isDirectory) return;
  } catch {
    throw new ToolError(
      `Cannot run command: working directory "${given}" does not exist`,
      "Use an existing directory, relative to the workspace or absolute",
    );
  }
  throw new ToolError(
    `Cannot run command: working directory "${given}" is not a directory`,
    "Use an existing directory, relative to the workspace or absolute",
  );
}

interface Watch {
  reason: "timeout" | "abort" | null;
  stop(): void;
}

/** Kills the process (its whole group where possible) on timeout or abort. */
function watchProcess(child: Deno.ChildProcess, timeoutMs: number, signal: AbortSignal): Watch {
  const watch: Watch = { reason: null, stop };
  const kill = (reason: "timeout" | "abort") => {
    if (watch.reason) return;
    watch.reason = reason;
    killTree(child);
  };
  const timer = setTimeout(() => kill("timeout"), timeoutMs);
  const onAbort = () => kill("abort");
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort();
  function stop() {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
  return watch;
}

function killTree(child: Deno.ChildProcess): void {
  try {
    if (Deno.build.os !== "windows") Deno.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
}

/**
 * Reads stdout and stderr into `out` as chunks arrive, until the shell exits and both pipes
 * close. Background children may keep a pipe open; reading stops a short grace after exit.
 */
async function collect(child: Deno.ChildProcess, out: CappedOutput): Promise<Deno.CommandStatus> {
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pumps = readers.map(async (reader) => {
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
    } catch {
      // Cancelled after the grace period.
    }
  });
  const status = await child.status;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((res) => timer = setTimeout(res, DRAIN_GRACE_MS));
  await Promise.race([Promise.all(pumps), grace]);
  clearTimeout(timer);
  await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
  await Promise.all(pumps);
  return status;
}
