/**
 * Claude Code's `Workflow`, our way (loaded on its first call; the schema is in
 * `agent_task.ts`): a script of sub-agent steps run one after another. The script is plain text,
 * its steps separated by lines holding only `---`; each step is the prompt of a fresh sub-agent,
 * in which `{{previous}}` becomes the report of the step before (empty for the first) and
 * `{{args}}` the call's `args` (a string as it is, anything else as JSON). A step that does not
 * finish stops the run; `resumeFromRunId` runs it again from that step, the reports of the steps
 * before kept. Runs are kept for the session's lifetime.
 */
import { ToolError } from "../errors.ts";
import { decodeText, fsOf } from "./_fs.ts";
import { resolvePath } from "./_paths.ts";
import { resourceKey, resourcesOf } from "./resources.ts";
import type { ToolContext } from "./types.ts";

/** The input `agent.workflow` takes. */
export interface WorkflowInput {
  script?: string;
  scriptPath?: string;
  name?: string;
  description?: string;
  title?: string;
  args?: unknown;
  resumeFromRunId?: string;
}

/** What a run returns. */
export interface WorkflowOutput {
  runId: string;
  name: string;
  /** `completed` or `failed` (a step did not finish). */
  status: string;
  steps: number;
  completedSteps: number;
  /** The last finished step's report (the failure, when one failed). */
  report: string;
  /** Every step's prompt head and report, in order. */
  text: string;
}

interface Run {
  id: string;
  name: string;
  steps: string[];
  args: unknown;
  reports: string[];
}

const RUNS = resourceKey<Map<string, Run>>("tools.workflow_runs");
/** Most steps one script may hold. */
const MAX_STEPS = 50;

export async function runWorkflow(input: WorkflowInput, ctx: ToolContext): Promise<WorkflowOutput> {
  const runner = ctx.runSubagent;
  if (!runner) {
    throw new ToolError(
      "Workflows are not available here (sub-agents cannot start them)",
      "Do the steps yourself",
    );
  }
  const run = await runOf(input, ctx);
  for (let i = run.reports.length; i < run.steps.length; i++) {
    const previous = run.reports.at(-1) ?? "";
    const prompt = run.steps[i].replaceAll("{{previous}}", previous)
      .replaceAll("{{args}}", argsText(run.args));
    const result = await runner({
      prompt,
      description: `${run.name} ${i + 1}/${run.steps.length}`,
      callId: ctx.callId,
      progress: (chunk) => ctx.progress(chunk),
    });
    if (result.status === "aborted") {
      throw ctx.signal.reason ?? new DOMException("Aborted", "AbortError");
    }
    if (result.status !== "completed") {
      return outputOf(run, "failed", result.finalText || result.status);
    }
    run.reports.push(result.finalText);
  }
  return outputOf(run, "completed", run.reports.at(-1) ?? "");
}

/** The run to go on with: a stopped one by id, or a new one from the script. */
async function runOf(input: WorkflowInput, ctx: ToolContext): Promise<Run> {
  const runs = resourcesOf(ctx).get(RUNS) ?? new Map<string, Run>();
  resourcesOf(ctx).set(RUNS, runs);
  if (input.resumeFromRunId) {
    const run = runs.get(input.resumeFromRunId);
    if (!run) {
      const known = [...runs.keys()].join(", ") || "none";
      throw new ToolError(
        `There is no workflow run ${input.resumeFromRunId}`,
        `Runs of this session: ${known}`,
      );
    }
    return run;
  }
  const steps = splitSteps(await scriptOf(input, ctx));
  const id = `wf_${crypto.randomUUID().slice(0, 8)}`;
  const name = input.name || input.title || input.description || "workflow";
  const run: Run = { id, name, steps, args: input.args, reports: [] };
  runs.set(id, run);
  return run;
}

async function scriptOf(input: WorkflowInput, ctx: ToolContext): Promise<string> {
  if (input.script !== undefined && input.scriptPath !== undefined) {
    throw new ToolError(
      "Both script and scriptPath were given",
      "Pass the steps one way: script or scriptPath",
    );
  }
  if (input.script !== undefined) return input.script;
  if (input.scriptPath === undefined) {
    throw new ToolError(
      "No steps given",
      "Pass script (steps separated by lines of ---) or scriptPath",
    );
  }
  const path = resolvePath(ctx.cwd, input.scriptPath);
  try {
    return decodeText(await fsOf(ctx).readFile(path));
  } catch (error) {
    throw new ToolError(
      `Cannot read the script ${input.scriptPath}: ${(error as Error).message}`,
      "Give the path of a text file in the workspace",
    );
  }
}

/** The script's steps: the text between lines of `---`, blank steps dropped. */
function splitSteps(script: string): string[] {
  const steps = script.split(/^---[ \t]*$/m).map((s) => s.trim()).filter(Boolean);
  if (!steps.length) {
    throw new ToolError(
      "The script has no steps",
      "Write each step's prompt, separated by lines of ---",
    );
  }
  if (steps.length > MAX_STEPS) {
    throw new ToolError(
      `The script has ${steps.length} steps; at most ${MAX_STEPS} run in one workflow`,
      "Split it into several workflows",
    );
  }
  return steps;
}

function argsText(args: unknown): string {
  if (args === undefined) return "";
  return typeof args === "string" ? args : JSON.stringify(args);
}

function outputOf(run: Run, status: string, report: string): WorkflowOutput {
  const lines = run.steps.map((step, i) => {
    const head = step.split("\n")[0].slice(0, 80);
    const done = run.reports[i];
    return `## Step ${i + 1}: ${head}\n${
      done ?? (i === run.reports.length ? `Did not finish: ${report}` : "Not run.")
    }`;
  });
  const resume = status === "failed" ? `\n\nResume with resumeFromRunId "${run.id}".` : "";
  return {
    runId: run.id,
    name: run.name,
    status,
    steps: run.steps.length,
    completedSteps: run.reports.length,
    report,
    text:
      `Workflow ${run.name} (${run.id}): ${status}, ${run.reports.length} of ${run.steps.length} steps done.\n\n${
        lines.join("\n\n")
      }${resume}`,
  };
}
