/**
 * `--output-schema FILE`: the JSON Schema the final answer must match. The file is read at start
 * (the SDK deletes it after the turn); the answer is checked with Ajv, and a mismatch gets one
 * corrective turn before the run fails.
 */
import { resolve } from "node:path";
import { UsageError, UserError } from "../errors.ts";
import { InputFileError, MAX_INPUT_FILE_BYTES_TEXT, readInputText } from "../input_file.ts";
import type { TurnOutcome } from "../loop/events.ts";
import type { OutputSchema } from "../model/message.ts";
import type { ProviderFailure } from "../model/stream.ts";

/** The name Codex gives the schema on the wire. */
const OUTPUT_SCHEMA_NAME = "codex_output_schema";

/** A loaded schema and its validator. */
export interface AnswerSchema {
  wire: OutputSchema;
  /** Why `text` does not match, or undefined when it does. */
  problem(text: string): string | undefined;
}

/** Reads and compiles the schema file; each failure names the file. */
export async function readOutputSchema(path: string): Promise<AnswerSchema> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readInputText(file, { what: "output schema file" });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new UsageError(`Failed to read output schema file "${file}": ${error.reason}`, {
      hint: `Pass --output-schema a JSON Schema file of at most ${MAX_INPUT_FILE_BYTES_TEXT}`,
      cause: error,
    });
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `Output schema file "${file}" is not valid JSON: ${(error as Error).message}`,
      { hint: "Fix the JSON in the file; it must hold one JSON Schema object" },
    );
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UserError(`Output schema file "${file}" does not hold a JSON object`, {
      hint: 'Write a JSON Schema object, for example {"type": "object", "properties": {...}}',
    });
  }
  const validate = await compile(schema as Record<string, unknown>, file);
  return {
    wire: { name: OUTPUT_SCHEMA_NAME, schema: schema as Record<string, unknown>, strict: true },
    problem(answer) {
      let value: unknown;
      try {
        value = JSON.parse(answer);
      } catch (error) {
        return `the answer is not JSON (${(error as Error).message})`;
      }
      return validate(value);
    },
  };
}

async function compile(
  schema: Record<string, unknown>,
  file: string,
): Promise<(value: unknown) => string | undefined> {
  const draft = String(schema.$schema ?? "");
  // Formats and unknown keywords are not checked: strict wire schemas often carry extras.
  const options = { strict: false, validateFormats: false, allErrors: true };
  const ajv = draft.includes("2020-12")
    ? new (await import("ajv/dist/2020.js")).Ajv2020(options)
    : draft.includes("2019-09")
    ? new (await import("ajv/dist/2019.js")).Ajv2019(options)
    : new (await import("ajv")).Ajv(options);
  try {
    const check = ajv.compile(schema);
    return (value) =>
      check(value) ? undefined : ajv.errorsText(check.errors, { dataVar: "answer" });
  } catch (error) {
    throw new UserError(
      `Output schema file "${file}" is not a valid JSON Schema: ${(error as Error).message}`,
      { hint: "Fix the schema; https://json-schema.org describes the format" },
    );
  }
}

/**
 * The answer as JSON text: trimmed, and taken out of a Markdown code fence when the model put it
 * in one.
 */
export function answerJson(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[A-Za-z]*\s*\n([\s\S]*?)\n\s*```$/.exec(trimmed);
  return fenced ? fenced[1].trim() : trimmed;
}

/** The user message of the one corrective turn. */
function correctionPrompt(problem: string): string {
  return `Your final answer must be only JSON that matches the output schema; it does not: ${problem}. ` +
    "Reply again with only the corrected JSON: no prose and no code fence.";
}

/** A turn whose final answer still did not match the output schema after the corrective turn. */
export interface SchemaViolation {
  status: "failed";
  error: ProviderFailure;
  /** What does not match. */
  schemaViolation: string;
}

/**
 * A turn whose final answer must be JSON that matches `schema`: `first` runs the turn (with the
 * schema on the wire); a completed answer is returned as its JSON text; a mismatch gets one
 * corrective turn (`correct` with the correction prompt), then the outcome is a
 * `SchemaViolation` naming it.
 */
export async function checkedTurn(
  schema: AnswerSchema,
  first: () => Promise<TurnOutcome>,
  correct: (prompt: string) => Promise<TurnOutcome>,
): Promise<TurnOutcome | SchemaViolation> {
  let outcome = await first();
  for (let attempt = 0; outcome.status === "completed"; attempt++) {
    if (outcome.refused) return outcome;
    const text = answerJson(outcome.finalText);
    const problem = schema.problem(text);
    if (!problem) return { status: "completed", finalText: text };
    if (attempt === 1) {
      const message = `The final answer does not match the output schema: ${problem}`;
      const hint = "Simplify the schema, or try a model that follows structured output";
      return {
        status: "failed",
        error: { message, hint, retryable: false },
        schemaViolation: problem,
      };
    }
    outcome = await correct(correctionPrompt(problem));
  }
  return outcome;
}
