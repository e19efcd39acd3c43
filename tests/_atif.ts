/**
 * Checks an ATIF-v1.4 trajectory the way Harbor does (../shared/reference/harbor.md §3.3): the
 * JSON Schema in tests/fixtures/atif/ (types, required keys, unknown keys rejected), then the
 * validator's rules that a schema cannot say. `atifProblems()` lists every problem found.
 */
import { Ajv } from "ajv";

const SCHEMA = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/atif/atif-v1.4.schema.json", import.meta.url)),
);
const validate = new Ajv({ allErrors: true }).compile(SCHEMA);

/** Fields only an agent step may carry (rule 2). */
const AGENT_ONLY = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"];

/** What `datetime.fromisoformat` accepts, near enough: a date, then optionally a time and zone. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

type Json = Record<string, unknown>;

/** Every way `doc` breaks the schema or Harbor's validator rules; empty when it is valid. */
export function atifProblems(doc: unknown): string[] {
  if (!validate(doc)) {
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }
  const problems: string[] = [];
  const steps = (doc as { steps: Json[] }).steps;
  steps.forEach((step, i) => {
    const at = `step ${i + 1}`;
    if (step.step_id !== i + 1) problems.push(`${at}: step_id ${step.step_id}, expected ${i + 1}`);
    if (step.source !== "agent") {
      for (const key of AGENT_ONLY) {
        if (step[key] != null) problems.push(`${at}: ${key} on a ${step.source} step`);
      }
    }
    if (typeof step.timestamp === "string" && !ISO_TIME.test(step.timestamp)) {
      problems.push(`${at}: timestamp "${step.timestamp}" is not ISO 8601`);
    }
    const ids = new Set(((step.tool_calls ?? []) as Json[]).map((c) => c.tool_call_id));
    const results = ((step.observation as Json | null)?.results ?? []) as Json[];
    for (const result of results) {
      if (result.source_call_id != null && !ids.has(result.source_call_id)) {
        problems.push(`${at}: source_call_id ${result.source_call_id} names no call of the step`);
      }
    }
  });
  return problems;
}
