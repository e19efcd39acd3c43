/**
 * What eval leaves besides the job folder: the report on stdout, and on request the records as
 * JSON, the HTML page and SWE-bench predictions. `eval report` renders the same from a job folder.
 */
import { join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import type { Trajectory } from "../../trajectory/atif.ts";
import { writeJsonWhole, writeTextWhole } from "../../trajectory/write.ts";
import { writePredictions } from "./predictions.ts";
import { renderHtml } from "./report/html.ts";
import { summarize } from "./report/stats.ts";
import type { RunRecord } from "./types.ts";

/** Which files to write. */
export interface OutputFiles {
  json?: string;
  html?: string;
  predictions?: string;
}

/** Writes the files asked for; answers the lines that name them. */
export async function writeOutputs(
  jobDir: string,
  records: RunRecord[],
  files: OutputFiles,
): Promise<string[]> {
  const lines: string[] = [];
  if (files.json) {
    const runs = records;
    await writeFile(
      files.json,
      "--json",
      () =>
        writeJsonWhole(files.json!, {
          job_dir: resolve(jobDir),
          runs,
          summary: summaryOf(records),
        }),
    );
    lines.push(`Records: ${resolve(files.json)}`);
  }
  if (files.html) {
    const page = renderHtml(records, await trajectoriesOf(jobDir, records), {
      title: `interpreter eval: ${resolve(jobDir)}`,
    });
    await writeFile(files.html, "--html", () => writeTextWhole(files.html!, page));
    lines.push(`HTML report: ${resolve(files.html)}`);
  }
  if (files.predictions) {
    const runs = [];
    for (const r of records) {
      const patch = await Deno.readTextFile(join(jobDir, r.trial, "agent", "patch.diff"))
        .catch(() => "");
      runs.push({ task: r.task, harness: r.harness, model: r.model, patch });
    }
    await writePredictions(files.predictions, runs);
    lines.push(`Predictions: ${resolve(files.predictions)}`);
  }
  return lines;
}

/** The summary rows without their runs (the runs are listed once, in `runs`). */
function summaryOf(records: RunRecord[]) {
  return summarize(records).map((task) => ({
    task: task.task,
    rows: task.rows.map(({ runs: _runs, ...row }) => row),
  }));
}

/** Each run's trajectory, by trial name; a run without a readable one is left out. */
async function trajectoriesOf(
  jobDir: string,
  records: RunRecord[],
): Promise<Map<string, Trajectory>> {
  const out = new Map<string, Trajectory>();
  for (const r of records) {
    const file = join(jobDir, r.trial, "agent", "trajectory.json");
    try {
      out.set(r.trial, JSON.parse(await Deno.readTextFile(file)));
    } catch {
      // The page says the run has no trajectory.
    }
  }
  return out;
}

async function writeFile(path: string, flag: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    throw new UserError(
      `Cannot write ${flag} file "${resolve(path)}": ${(error as Error).message}`,
      {
        hint: `Pass ${flag} a file in a directory you can write to`,
        cause: error,
      },
    );
  }
}
