/**
 * `shell.monitor`: watches a background job's output for a line that matches a pattern and
 * returns when one appears, the job ends or the timeout passes. The job is one the call starts
 * (`command`, as `shell.start` would) or one already running (`id` or `pid`); it keeps running
 * after the call returns, for `shell.output` and `shell.stop`.
 */
import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability, type ToolContext } from "./capability.ts";
import { type JobInfo, type JobRegistry, jobRegistryOf } from "./shell_jobs.ts";
import { shellStart } from "./shell_background.ts";

/** How long a watch lasts when the call gives no timeout (Claude Code's and Qwen Code's). */
const DEFAULT_TIMEOUT_MS = 300_000;
/** The longest watch a call may ask for. */
const MAX_TIMEOUT_MS = 3_600_000;
/** How many of the lines seen while watching the result keeps (the last ones). */
const KEPT_LINES = 50;
/** Longest single line kept in the result, in characters. */
const KEPT_LINE_CHARS = 2000;

const shellMonitorInput = z.object({
  command: z.string().min(1).optional()
    .describe("Command to start in the background and watch; or give `id`/`pid` of a job"),
  id: z.string().min(1).optional().describe("Id of a running background job to watch"),
  pid: z.number().int().optional().describe("Process id of a running background job to watch"),
  cwd: z.string().optional().describe("Working directory for `command`"),
  description: z.string().optional().describe("Short label of what is watched"),
  pattern: z.string().optional()
    .describe("Regular expression a line must match; any non-empty line when absent"),
  timeout_ms: z.number().nonnegative().max(MAX_TIMEOUT_MS).optional()
    .describe("Longest wait in milliseconds; default 300000"),
  escalated: z.boolean().optional()
    .describe("Run `command` outside the sandbox; set by the approval hook once allowed"),
});

/** Result of `shell.monitor`. */
export interface ShellMonitorOutput {
  id: string;
  pid: number;
  command: string;
  description: string;
  /** Whether a line matched before the job ended or the time ran out. */
  matched: boolean;
  /** The first matching line ("" when none did). */
  line: string;
  /** Why the watch ended: `matched`, `ended` (the job completed) or `timeout`. */
  reason: "matched" | "ended" | "timeout";
  /** No line matched and the job completed. */
  ended: boolean;
  /** No line matched and the job still runs: the time ran out. */
  timedOut: boolean;
  /** The lines before the matching one (all lines seen when none matched), the last KEPT_LINES. */
  lines: string;
  status: "running" | "completed";
  exitCode: number | null;
  timeoutMs: number;
  outputPath: string;
}

/** Starts or finds the job, then watches it (see the module comment). */
export const shellMonitor = defineCapability({
  id: "shell.monitor",
  input: shellMonitorInput,
  mutates: true,
  async run(input, ctx): Promise<ShellMonitorOutput> {
    const pattern = compilePattern(input.pattern);
    const jobs = jobRegistryOf(ctx);
    const id = await jobToWatch(input, jobs, ctx);
    const timeoutMs = input.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const seen = await watchJob(jobs, id, { pattern, timeoutMs, signal: ctx.signal });
    const job = jobs.get(id);
    const reason = seen.line !== undefined
      ? "matched"
      : job.status === "completed"
      ? "ended"
      : "timeout";
    return {
      id,
      pid: job.pid,
      command: job.command,
      description: job.description,
      matched: seen.line !== undefined,
      line: seen.line ?? "",
      reason,
      ended: reason === "ended",
      timedOut: reason === "timeout",
      lines: seen.lines.join("\n"),
      status: job.status,
      exitCode: job.exitCode,
      timeoutMs,
      outputPath: job.outputPath,
    };
  },
});

/** The pattern as a RegExp, or a ToolError naming what is wrong with it. */
function compilePattern(source: string | undefined): RegExp | undefined {
  if (source === undefined || source === "") return undefined;
  try {
    return new RegExp(source);
  } catch (error) {
    throw new ToolError(
      `The pattern is not a valid regular expression: ${(error as Error).message}`,
      "Give a JavaScript regular expression, e.g. `listening on port \\d+`",
    );
  }
}

/** The id of the job the call names, starting it first when the call gives a command. */
async function jobToWatch(
  input: z.infer<typeof shellMonitorInput>,
  jobs: JobRegistry,
  ctx: ToolContext,
): Promise<string> {
  const named = input.id !== undefined || input.pid !== undefined;
  if (input.command !== undefined && named) {
    throw new ToolError(
      "Give either a command to start or the job to watch, not both",
      "Leave out `command` to watch a running job, or `id`/`pid` to start a new one",
    );
  }
  if (input.command !== undefined) {
    const { command, cwd, description, escalated } = input;
    return (await shellStart.run({ command, cwd, description, escalated }, ctx)).id;
  }
  if (input.id !== undefined) return jobs.get(input.id).id;
  if (input.pid !== undefined) return jobByPid(jobs.list(), input.pid).id;
  throw new ToolError("Nothing to watch", "Give a command to start, or a background job's id");
}

function jobByPid(jobs: JobInfo[], pid: number): JobInfo {
  const job = jobs.find((j) => j.pid === pid);
  if (job) return job;
  throw new ToolError(
    `No background process with PID ${pid} was started in this session`,
    jobs.length ? `Known PIDs: ${jobs.map((j) => j.pid).join(", ")}` : "Start one first",
  );
}

/** How often the output is looked at again while watching. */
const POLL_MS = 100;

/**
 * Looks through the job's output from its start, again every POLL_MS, until a line matches (any
 * non-empty line without a pattern), the job completes or `timeoutMs` passes. The output file is
 * read rather than the live stream: it holds every chunk, including those written before the
 * watch began.
 */
async function watchJob(
  jobs: JobRegistry,
  id: string,
  opts: { pattern?: RegExp; timeoutMs: number; signal: AbortSignal },
): Promise<{ line?: string; lines: string[] }> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const completed = jobs.get(id).status === "completed";
    const lines = (await jobs.output(id)).text.split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop();
    const line = lines.find((l) => opts.pattern ? opts.pattern.test(l) : l.trim() !== "");
    const left = deadline - Date.now();
    if (line !== undefined || completed || left <= 0) {
      const upTo = line !== undefined ? lines.indexOf(line) : lines.length;
      const kept = lines.slice(0, upTo).slice(-KEPT_LINES).map((l) => l.slice(0, KEPT_LINE_CHARS));
      return { line: line?.slice(0, KEPT_LINE_CHARS), lines: kept };
    }
    await jobs.wait(id, Math.min(left, POLL_MS), opts.signal);
  }
}
