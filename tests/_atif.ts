/**
 * Checks an ATIF trajectory the way Harbor does (../shared/reference/harbor.md §3.3): the JSON
 * Schema in tests/fixtures/atif/ (types, required keys, unknown keys rejected), then the
 * validator's rules that a schema cannot say. `atifProblems()` checks against v1.7 (what we
 * write; embedded sub-agent trajectories are checked too); `atifV14Problems()` against v1.4 (the
 * job folders written before, which `eval report` still reads).
 */
import { Ajv } from "ajv";

async function schema(name: string) {
  const file = new URL(`./fixtures/atif/${name}`, import.meta.url);
  return new Ajv({ allErrors: true }).compile(JSON.parse(await Deno.readTextFile(file)));
}
type Validator = Awaited<ReturnType<typeof schema>>;
const validateV17 = await schema("atif-v1.7.schema.json");
const validateV14 = await schema("atif-v1.4.schema.json");

/** Fields only an agent step may carry (rule 2). */
const AGENT_ONLY = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"];

/** What `datetime.fromisoformat` accepts, near enough: a date, then optionally a time and zone. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

type Json = Record<string, unknown>;

/** Every way `doc` breaks the v1.7 schema or Harbor's validator rules; empty when it is valid. */
export function atifProblems(doc: unknown): string[] {
  return problemsWith(validateV17, doc);
}

/** Every way `doc` breaks ATIF-v1.4 (Harbor 0.1.18's models); empty when it is valid. */
export function atifV14Problems(doc: unknown): string[] {
  return problemsWith(validateV14, doc);
}

/** The schema's errors, or when there are none the validator's rules broken. */
function problemsWith(validate: Validator, doc: unknown): string[] {
  if (!validate(doc)) {
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }
  return ruleProblems(doc as Json, "");
}

function ruleProblems(doc: Json, where: string): string[] {
  const problems: string[] = [];
  (doc.steps as Json[]).forEach((step, i) => {
    problems.push(...stepProblems(step, i, `${where}step ${i + 1}`));
  });
  const subagents = (doc.subagent_trajectories ?? []) as Json[];
  const ids = new Set<unknown>();
  subagents.forEach((sub, i) => {
    const at = `${where}subagent_trajectories[${i}]`;
    if (typeof sub.trajectory_id !== "string") problems.push(`${at}: no trajectory_id`);
    else if (ids.has(sub.trajectory_id)) {
      problems.push(`${at}: trajectory_id ${sub.trajectory_id} is not unique`);
    }
    ids.add(sub.trajectory_id);
    problems.push(...ruleProblems(sub, `${at} `));
  });
  return problems;
}

function stepProblems(step: Json, i: number, at: string): string[] {
  const problems: string[] = [];
  if (step.step_id !== i + 1) problems.push(`${at}: step_id ${step.step_id}, expected ${i + 1}`);
  if (step.source !== "agent") {
    for (const key of AGENT_ONLY) {
      if (step[key] != null) problems.push(`${at}: ${key} on a ${step.source} step`);
    }
  } else if (step.llm_call_count === 0) {
    for (const key of ["metrics", "reasoning_content"]) {
      if (step[key] != null) problems.push(`${at}: ${key} on a step with llm_call_count 0`);
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
  return problems;
}
