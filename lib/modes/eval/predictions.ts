/**
 * SWE-bench predictions: one JSON object a line with `instance_id`, `model_name_or_path` and
 * `model_patch`, the file SWE-bench's evaluation harness grades (`--predictions_path`).
 */
import { resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { writeTextWhole } from "../../trajectory/write.ts";

/** One run's patch: the task is the SWE-bench instance id. */
export interface PredictionRun {
  task: string;
  harness: string;
  model: string;
  /** The unified diff the run left. */
  patch: string;
}

/** `interpreter__<harness>__<model>`, with each `/` of the model as `__`. */
function predictionModelName(harness: string, model: string): string {
  return `interpreter__${harness}__${model.replaceAll("/", "__")}`;
}

/** The predictions JSONL of `runs`, a line each, in order; "" for none. */
export function predictionLines(runs: readonly PredictionRun[]): string {
  return runs.map((run) =>
    `${
      JSON.stringify({
        instance_id: run.task,
        model_name_or_path: predictionModelName(run.harness, run.model),
        model_patch: run.patch,
      })
    }\n`
  ).join("");
}

/**
 * Writes the predictions of `runs` to `path` whole, through a temp file beside it renamed over
 * the target; the folder is made when missing. A `UserError` when it cannot be written.
 */
export async function writePredictions(
  path: string,
  runs: readonly PredictionRun[],
): Promise<void> {
  const file = resolve(path);
  try {
    await writeTextWhole(file, predictionLines(runs));
  } catch (error) {
    throw new UserError(`Cannot write the predictions to "${file}": ${(error as Error).message}`, {
      hint: "Name a file in a directory you can write to",
      cause: error,
    });
  }
}
