import * as z from "zod";
import { ToolError } from "../errors.ts";
import { commandCwd, sandboxedSpawn } from "./_sandboxed_spawn.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { displayPath } from "./_paths.ts";
import { type JobInfo, jobRegistryOf } from "./shell_jobs.ts";
import { shellArgs } from "./shell_run.ts";

/** How long a blocking `shell.output` waits when the call gives no timeout. */
const DEFAULT_WAIT_MS = 30_000;
/** Longest wait a `shell.output` call may ask for. */
const MAX_WAIT_MS = 3_600_000;

/**
 * Input of `shell.start`. Harness mappings: Claude `Bash` with `run_in_background`, kimi `Bash`
 * / `Shell` (`cwd`), qwen and gemini `run_shell_command` with `is_background` (`directory`,
 * `dir_path` → `cwd`); routing those calls here instead of to `shell.run` is the harness's job.
 */
const shellStartInput = z.object({
  command: z.string().min(1).describe("Shell command line to run in the background"),
  cwd: z.string().optional().describe("Working directory, absolute or relative to the workspace"),
  description: z.string().optional().describe("Short label shown in job listings"),
  escalated: z.boolean().optional()
    .describe("Run outside the sandbox; set by the approval hook once the user allowed it"),
});

/** Result of `shell.start`. */
export interface ShellStartOutput {
  id: string;
  pid: number;
  /** Absolute path of the file receiving combined stdout and stderr as the job runs. */
  outputPath: string;
  command: string;
  description: string;
  /** Relative to the workspace when inside it. */
  cwd: string;
}

/**
 * Starts a command in the background (`bash -c`, own process group, through `ctx.sandbox` when
 * the session has one) and returns at once.
 */
export const shellStart = defineCapability({
  id: "shell.start",
  input: shellStartInput,
  mutates: true,
  async run(input, ctx): Promise<ShellStartOutput> {
    const cwd = await commandCwd(ctx, input.cwd);
    const argv = ["bash", ...shellArgs("bash", false), input.command];
    const spawn = await sandboxedSpawn(
      argv,
      { cwd, env: ctx.env, escalated: input.escalated ?? false },
      ctx,
    );
    ctx.signal.throwIfAborted();
    const job = await jobRegistryOf(ctx).start({
      spawn,
      command: input.command,
      cwd,
      description: input.description,
    });
    return {
      id: job.id,
      pid: job.pid,
      outputPath: job.outputPath,
      command: job.command,
      description: job.description,
      cwd: displayPath(ctx.cwd, cwd),
    };
  },
});

/**
 * Input of `shell.output`. `block` defaults to false (kimi, qwen `monitor`; Claude's schema
 * makes it required). Give the wait as `timeout_ms` (Claude `TaskOutput.timeout`) or
 * `timeout_s` (kimi `TaskOutput.timeout`, qwen `monitor.timeout`).
 */
const shellOutputInput = z.object({
  id: z.string().min(1).optional().describe("Job id from shell.start; this or `pid` is required"),
  pid: z.number().int().optional()
    .describe(
      "Process id from shell.start (Gemini CLI's read_background_output), in place of `id`",
    ),
  block: z.boolean().optional().describe("Wait for the job to complete; default false"),
  timeout_ms: z.number().nonnegative().max(MAX_WAIT_MS).optional()
    .describe("Longest wait when blocking, in milliseconds; default 30000"),
  timeout_s: z.number().nonnegative().max(MAX_WAIT_MS / 1000).optional()
    .describe("Longest wait when blocking, in seconds; `timeout_ms` wins when both are given"),
  tail_lines: z.number().int().min(1).optional()
    .describe("Return only this many lines from the end of the output (Gemini CLI's `lines`)"),
  delay_ms: z.number().int().nonnegative().max(MAX_WAIT_MS).optional()
    .describe("Wait this long (less if the job ends sooner) before reading, for output to arrive"),
});

/** Result of `shell.output`. */
export interface ShellOutputOutput {
  id: string;
  pid: number;
  command: string;
  description: string;
  status: "running" | "completed";
  /** Null while running, and when a signal ended the job. */
  exitCode: number | null;
  signal: string | null;
  /** Everything the job wrote so far (stdout and stderr in arrival order), head and tail kept. */
  output: string;
  truncated: boolean;
  /** `complete` once the job completed, so the output is final. */
  retrieval: "not_ready" | "complete";
  outputPath: string;
}

/** Returns a background job's status and output, optionally waiting for it to complete. */
export const shellOutput = defineCapability({
  id: "shell.output",
  input: shellOutputInput,
  mutates: false,
  async run(input, ctx): Promise<ShellOutputOutput> {
    const jobs = jobRegistryOf(ctx);
    const waitMs = input.timeout_ms ??
      (input.timeout_s === undefined ? DEFAULT_WAIT_MS : input.timeout_s * 1000);
    if (input.id && /^agent-\d+$/.test(input.id) && ctx.agents) {
      const { agentAsJob } = await import("./agent_pool_run.ts");
      return await agentAsJob(input.id, input.block ? waitMs : 0, ctx);
    }
    const id = jobIdOf(input, jobs.list());
    if (input.delay_ms) await jobs.wait(id, input.delay_ms, ctx.signal);
    const job = input.block ? await waitReporting(id, waitMs, ctx) : jobs.get(id);
    const out = lastLines(await jobs.output(id), input.tail_lines);
    return {
      id: job.id,
      pid: job.pid,
      command: job.command,
      description: job.description,
      status: job.status,
      exitCode: job.exitCode,
      signal: job.signal,
      output: out.text,
      truncated: out.truncated,
      retrieval: job.status === "completed" ? "complete" : "not_ready",
      outputPath: job.outputPath,
    };
  },
});

/** The last `count` lines of `out` (all of it without a count); cutting lines truncates. */
function lastLines(
  out: { text: string; truncated: boolean },
  count: number | undefined,
): { text: string; truncated: boolean } {
  if (count === undefined) return out;
  const lines = out.text.split("\n");
  const ends = lines.at(-1) === "";
  const body = ends ? lines.slice(0, -1) : lines;
  if (body.length <= count) return out;
  const text = body.slice(-count).join("\n") + (ends ? "\n" : "");
  return { text, truncated: true };
}

/** The job `input` names by `id`, or by `pid` among `jobs`. */
function jobIdOf(input: { id?: string; pid?: number }, jobs: JobInfo[]): string {
  if (input.id !== undefined) return input.id;
  if (input.pid === undefined) {
    throw new ToolError("Give the background job's id or process id", "Set id (or pid)");
  }
  const job = jobs.find((j) => j.pid === input.pid);
  if (job) return job.id;
  const known = jobs.map((j) => j.pid).join(", ");
  throw new ToolError(
    `No background process with PID ${input.pid} was started in this session`,
    known ? `Known PIDs: ${known}` : "No background processes were started",
  );
}

/** Waits for a job like `JobRegistry.wait`, reporting its output meanwhile as progress. */
async function waitReporting(id: string, waitMs: number, ctx: ToolContext): Promise<JobInfo> {
  const jobs = jobRegistryOf(ctx);
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const stop = jobs.watch(id, (stream, chunk) => {
    const text = decoders[stream].decode(chunk, { stream: true });
    if (text) ctx.progress({ stream, text });
  });
  try {
    return await jobs.wait(id, waitMs, ctx.signal);
  } finally {
    stop();
  }
}

/** Input of `shell.stop`. Claude/kimi `TaskStop.task_id`, qwen `task_stop.task_id` → `id`. */
const shellStopInput = z.object({
  id: z.string().min(1).describe("Job id from shell.start"),
});

/** Result of `shell.stop`. Stopping a job that already completed is not an error. */
export interface ShellStopOutput {
  id: string;
  command: string;
  stopped: true;
  /** Whether the job was still running when the call came. */
  wasRunning: boolean;
  exitCode: number | null;
  signal: string | null;
}

/** Stops a background job: SIGTERM, then SIGKILL, to its whole process group. */
export const shellStop = defineCapability({
  id: "shell.stop",
  input: shellStopInput,
  mutates: true,
  async run(input, ctx): Promise<ShellStopOutput> {
    // A sub-agent is a task too (TaskStop, task_stop).
    if (/^agent-\d+$/.test(input.id) && ctx.agents) {
      return await (await import("./agent_pool_run.ts")).agentAsStopped(input.id, ctx);
    }
    const job = await jobRegistryOf(ctx).stop(input.id);
    return {
      id: job.id,
      command: job.command,
      stopped: true,
      wasRunning: job.wasRunning,
      exitCode: job.exitCode,
      signal: job.signal,
    };
  },
});

/** Input of `shell.list`: kimi `TaskList` spelling and defaults. */
const shellListInput = z.object({
  active_only: z.boolean().optional().describe("List only running jobs; default true"),
  limit: z.number().int().min(1).max(100).optional()
    .describe("Most jobs to list, newest first; default 20"),
});

/** Result of `shell.list`. */
export interface ShellListOutput {
  /** Newest first. */
  jobs: JobInfo[];
  /** Number of jobs listed. */
  count: number;
}

/** Lists the session's background jobs. */
export const shellList = defineCapability({
  id: "shell.list",
  input: shellListInput,
  mutates: false,
  run(input, ctx): Promise<ShellListOutput> {
    const all = jobRegistryOf(ctx).list();
    const jobs = (input.active_only ?? true ? all.filter((j) => j.status === "running") : all)
      .slice(0, input.limit ?? 20);
    return Promise.resolve({ jobs, count: jobs.length });
  },
});
