import * as z from "zod";
import { ToolError } from "../errors.ts";
import { commandCwd, preparedProcess, sandboxedSpawn } from "./_sandboxed_spawn.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { CappedOutput, OUTPUT_KEEP_BYTES } from "./_capped_output.ts";
import { displayPath } from "./_paths.ts";
import type { SpawnSpec } from "../../sandbox/command_sandbox.ts";
import { MAX_TIMER_MS, spawnInGroup, superviseChild } from "./process_group.ts";

/** Timeout used when the call gives none. */
const DEFAULT_TIMEOUT_MS = 120_000;
export { OUTPUT_KEEP_BYTES };
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
  escalated: z.boolean().optional()
    .describe("Ask to run outside the sandbox; runs only once the approval policy allows it"),
  sandbox_permissions: z.enum(["use_default", "require_escalated"]).optional()
    .describe('"require_escalated" is the same as `escalated: true`'),
  justification: z.string().optional().describe("Why the command needs to leave the sandbox"),
  description: z.string().optional().describe("What the command does, shown as its title"),
  session: z.boolean().optional().describe(
    "Run as an interactive session: return after `yield_ms` with a session id while it runs on",
  ),
  yield_ms: z.number().nonnegative().optional()
    .describe("With `session`: how long to wait before returning; default 10000"),
  tty: z.boolean().optional().describe("With `session`: run in a pseudo-terminal, stdin open"),
  max_output_tokens: z.number().positive().optional()
    .describe("Cap on the output returned, in tokens (4 bytes each)"),
});

/** True when the call asks to run outside the sandbox, by either spelling. */
function wantsEscalation(input: z.infer<typeof shellRunInput>): boolean {
  return input.escalated === true || input.sandbox_permissions === "require_escalated";
}

/** Output that suggests the sandbox, not the command, made it fail (on-failure approval). */
const SANDBOX_DENIAL =
  /Read-only file system|Operation not permitted|Permission denied|Could not resolve host|Network is unreachable|Couldn't connect to server|Temporary failure in name resolution/;

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
  /** A session still running after its yield: the id `shell.write_stdin` takes; else null. */
  sessionId?: number | null;
  /** The output's size in tokens before `max_output_tokens` cut it. */
  originalTokenCount?: number;
}

/** Runs a command line in a shell, with a timeout and capped combined output. */
export const shellRun = defineCapability({
  id: "shell.run",
  input: shellRunInput,
  mutates: true,
  async run(input, ctx): Promise<ShellRunOutput> {
    const cwd = await commandCwd(ctx, input.cwd);
    ctx.signal.throwIfAborted();
    // Sessions live in the session's job registry, which needs its scratch space; a context
    // without one (an embedded loop) runs the command to completion, the yield raising its timeout.
    const asSession = input.session === true && ctx.scratch !== undefined;
    const minTimeout = Math.max(input.min_timeout_ms ?? 0, asSession ? 0 : input.yield_ms ?? 0);
    const wanted = Math.max(input.timeout_ms ?? DEFAULT_TIMEOUT_MS, minTimeout);
    const timeoutMs = Math.min(wanted, MAX_TIMER_MS);
    const shell = input.shell ?? "bash";
    const argv = [shell, ...shellArgs(shell, input.login ?? false), input.command];
    const started = performance.now();
    const escalated = wantsEscalation(input);
    const attempt = (escalated: boolean) =>
      asSession
        ? sessionAttempt(argv, { cwd, escalated, input }, ctx)
        : runOnce(argv, { cwd, timeoutMs, escalated, shell: input.shell }, ctx);
    let result = await attempt(escalated);
    const sandbox = ctx.sandbox;
    let rerun: boolean | string = false;
    if (
      sandbox?.retryUnsandboxed && sandbox.status.enforced && !escalated && !result.sessionId &&
      result.code !== 0 && result.reason === null && SANDBOX_DENIAL.test(result.out.text())
    ) {
      const call = { callId: ctx.callId, tool: ctx.toolName, signal: ctx.signal };
      rerun = await sandbox.retryUnsandboxed(input.command, result.out.text(), call);
    }
    if (rerun === true) {
      result = await attempt(true);
    }
    const { out, reason: killed, code, sessionId } = result;
    const note = typeof rerun === "string" ? `\n${rerun}\n` : "";
    const capped = input.max_output_tokens === undefined && !asSession
      ? undefined
      : (await import("./exec_session.ts")).capTokens(out.text(), input.max_output_tokens);
    return {
      command: input.command,
      cwd: displayPath(ctx.cwd, cwd),
      exitCode: killed === "timeout" || sessionId ? null : code,
      output: (capped?.text ?? out.text()) + note,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      timedOut: killed === "timeout",
      timeoutMs,
      truncated: out.truncated,
      ...(input.session ? { sessionId: sessionId ?? null } : {}),
      ...(capped ? { originalTokenCount: capped.originalTokens } : {}),
    };
  },
});

interface RunOnce {
  out: CappedOutput;
  code: number;
  reason: "timeout" | null;
  /** Set when the command runs on as a session after its yield. */
  sessionId?: number | null;
}

/** Starts the command as an interactive session (`exec_session.ts`, loaded when first used). */
async function sessionAttempt(
  argv: string[],
  opts: { cwd: string; escalated: boolean; input: z.infer<typeof shellRunInput> },
  ctx: ToolContext,
): Promise<RunOnce> {
  const { startSession } = await import("./exec_session.ts");
  const { input } = opts;
  const chunk = await startSession(argv, {
    cwd: opts.cwd,
    escalated: opts.escalated,
    tty: input.tty ?? false,
    yieldMs: input.yield_ms,
    command: input.command,
  }, ctx);
  return { out: chunk.output, code: chunk.exitCode ?? 0, reason: null, sessionId: chunk.sessionId };
}

/**
 * Spawns `argv` (through the sandbox when the context has one) and collects its combined output,
 * reporting it as progress as it comes (one decoder per pipe, so a character split across two
 * chunks is decoded whole).
 */
async function runOnce(
  argv: string[],
  opts: { cwd: string; timeoutMs: number; escalated: boolean; shell?: string },
  ctx: ToolContext,
): Promise<RunOnce> {
  const how = { cwd: opts.cwd, env: ctx.env, escalated: opts.escalated };
  const child = await preparedProcess(argv, how, ctx) ??
    spawnShell(await sandboxedSpawn(argv, how, ctx), argv, opts);
  const out = new CappedOutput(OUTPUT_KEEP_BYTES, OUTPUT_KEEP_BYTES);
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const end = await superviseChild(child, {
    timeoutMs: opts.timeoutMs,
    signal: ctx.signal,
    graceMs: DRAIN_GRACE_MS,
    onChunk(stream, chunk) {
      out.push(chunk);
      const text = decoders[stream].decode(chunk, { stream: true });
      if (text) ctx.progress({ stream, text });
    },
  });
  return { out, code: end.status.code, reason: end.killed };
}

function spawnShell(
  spec: SpawnSpec,
  argv: string[],
  opts: { cwd: string; shell?: string },
): Deno.ChildProcess {
  try {
    return spawnInGroup({ cmd: spec.cmd, args: spec.args, cwd: opts.cwd, env: spec.env });
  } catch (err) {
    throw new ToolError(
      `Cannot start shell "${argv[0]}": ${(err as Error).message}`,
      opts.shell ? "Omit `shell` to use the default shell" : "Check that bash is installed",
    );
  }
}

/** Arguments placed before the command line for the given shell program. */
export function shellArgs(shell: string, login: boolean): string[] {
  const name = (shell.split(/[\\/]/).pop() ?? shell).toLowerCase().replace(/\.exe$/, "");
  if (name === "pwsh" || name === "powershell") return ["-NoProfile", "-Command"];
  if (name === "cmd") return ["/c"];
  return [login ? "-lc" : "-c"];
}
