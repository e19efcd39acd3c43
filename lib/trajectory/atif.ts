/**
 * A session's history as an ATIF trajectory (Agent Trajectory Interchange Format, `ATIF-v1.7`,
 * what Harbor reads: ../shared/reference/harbor.md §3). Pure: `exec --trajectory`, `eval` and
 * Harbor's shim build the same document from the same messages.
 *
 * Each user message is a user step, each assistant message (one model request) an agent step with
 * its reasoning, tool calls and token metrics; the tool results that follow become that step's
 * observation, tied to the calls by id. A result whose call is not in the step before it (a
 * compacted history) becomes a system step of its own, so every `source_call_id` names a call of
 * its step (the validator's rule).
 */
import { addUsage, type Block, emptyUsage, type Message, type Usage } from "../model/message.ts";

/**
 * The ATIF version written: Harbor's default since 0.22 (embedded sub-agent trajectories,
 * `trajectory_id`, `extra` on tool calls and observation results).
 */
export const ATIF_VERSION = "ATIF-v1.7";

/** A tool call of an agent step. */
export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
  /** What the call said beyond its arguments (its namespace, a freeform tool, unparsed text). */
  extra?: Record<string, unknown>;
}

/** Names an embedded sub-agent trajectory by its `trajectory_id`. */
export interface AtifSubagentRef {
  trajectory_id: string;
  session_id?: string;
  extra?: Record<string, unknown>;
}

/** One result of a step's observation; `source_call_id` names a call of the same step. */
export interface AtifObservationResult {
  source_call_id?: string;
  content?: string;
  /** The sub-agent runs this call started, embedded in `subagent_trajectories`. */
  subagent_trajectory_ref?: AtifSubagentRef[];
  /** `is_error` when the call failed, the tool's name on a result without its call. */
  extra?: Record<string, unknown>;
}

/** Token counts of one model request; `prompt_tokens` includes the cached ones. */
export interface AtifMetrics {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Record<string, unknown>;
}

/** One step. Only agent steps carry model_name, reasoning_content, tool_calls and metrics. */
export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: "system" | "user" | "agent";
  model_name?: string;
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  extra?: Record<string, unknown>;
}

/** Totals over the run. */
export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
  extra?: Record<string, unknown>;
}

/** The agent system that made the trajectory. */
export interface AtifAgent {
  name: string;
  version: string;
  model_name?: string;
  extra?: Record<string, unknown>;
}

/**
 * A whole ATIF trajectory: what we write is v1.7 (`trajectoryOf`); the type also reads the v1.4
 * files of earlier job folders, which have no `trajectory_id`.
 */
export interface Trajectory {
  schema_version: `ATIF-v1.${number}`;
  session_id: string;
  /**
   * Unique among the trajectories of a run: the session id (a sub-agent's is `<parent>/<agent>`);
   * always written, required on embedded ones, absent before v1.7.
   */
  trajectory_id?: string;
  agent: AtifAgent;
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
  extra?: Record<string, unknown>;
  /** The sub-agents' own runs, each linked from the result of the call that spawned it. */
  subagent_trajectories?: Trajectory[];
}

/** What the history does not say: who ran it, the run's totals, how it ended. */
export interface TrajectoryMeta {
  /** Our session id (`interpreter resume ID` opens it). */
  sessionId: string;
  agent: { name: string; version: string; modelName?: string; extra?: Record<string, unknown> };
  /**
   * Tokens over the whole run, sub-agents and compactions included (`Session.usage`); without
   * it the totals are the agent steps' sums.
   */
  usage?: Usage;
  /** USD spent, when the catalog has the model's prices. */
  costUsd?: number;
  /** How the run ended when it did not complete (a failure, a stop signal). */
  notes?: string;
  extra?: Record<string, unknown>;
  /** Added to `final_metrics.extra` (the run's counts). */
  finalExtra?: Record<string, unknown>;
}

/** The trajectory of `messages` (a history without the harness's context). */
export function trajectoryOf(messages: readonly Message[], meta: TrajectoryMeta): Trajectory {
  const steps = stepsOf(messages);
  if (steps.length === 0) {
    steps.push({ step_id: 1, source: "system", message: "The run recorded no messages." });
  }
  const agent: AtifAgent = { name: meta.agent.name, version: meta.agent.version };
  if (meta.agent.modelName) agent.model_name = meta.agent.modelName;
  if (meta.agent.extra) agent.extra = meta.agent.extra;
  return {
    schema_version: ATIF_VERSION,
    session_id: meta.sessionId,
    trajectory_id: meta.sessionId,
    agent,
    steps,
    ...(meta.notes ? { notes: meta.notes } : {}),
    final_metrics: finalMetrics(messages, steps.length, meta),
    ...(meta.extra ? { extra: meta.extra } : {}),
  };
}

function stepsOf(messages: readonly Message[]): AtifStep[] {
  const steps: AtifStep[] = [];
  const add = (step: Omit<AtifStep, "step_id">) => {
    steps.push({ step_id: steps.length + 1, ...step });
  };
  for (const m of messages) {
    if (m.role === "user") add({ source: m.systemRole ? "system" : "user", message: textOf(m) });
    else if (m.role === "assistant") add(agentStep(m));
    else {
      const last = steps.at(-1);
      if (last?.tool_calls?.some((c) => c.tool_call_id === m.callId)) addResult(last, m);
      else add(orphanResult(m));
    }
  }
  return steps;
}

function agentStep(m: Extract<Message, { role: "assistant" }>): Omit<AtifStep, "step_id"> {
  const step: Omit<AtifStep, "step_id"> = { source: "agent", message: textOf(m) };
  const reasoning = m.blocks.flatMap((b) => b.type === "thinking" && b.text ? [b.text] : []);
  if (reasoning.length > 0) step.reasoning_content = reasoning.join("\n\n");
  const calls = m.blocks.flatMap((b) => b.type === "tool_call" ? [toolCallOf(b)] : []);
  if (calls.length > 0) step.tool_calls = calls;
  const metrics = metricsOf(m.usage);
  if (metrics) step.metrics = metrics;
  if (m.stop !== "end_turn" && m.stop !== "tool_calls") step.extra = { stop_reason: m.stop };
  return step;
}

function toolCallOf(b: Extract<Block, { type: "tool_call" }>): AtifToolCall {
  const call: AtifToolCall = {
    tool_call_id: b.id,
    function_name: b.name,
    arguments: argumentsOf(b),
  };
  const extra = {
    ...(b.namespace ? { namespace: b.namespace } : {}),
    ...(b.freeform ? { freeform: true } : {}),
    ...(b.args == null && b.rawArgs ? { unparsed_arguments: true } : {}),
  };
  if (Object.keys(extra).length > 0) call.extra = extra;
  return call;
}

/** ATIF wants an object: other JSON goes under `input`, arguments that did not parse as raw text. */
function argumentsOf(b: Extract<Block, { type: "tool_call" }>): Record<string, unknown> {
  const { args, rawArgs } = b;
  if (args !== null && typeof args === "object" && !Array.isArray(args)) {
    return args as Record<string, unknown>;
  }
  if (args !== undefined && args !== null) return { input: args };
  return rawArgs ? { input: rawArgs } : {};
}

function metricsOf(usage: Usage): AtifMetrics | undefined {
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = usage;
  if (inputTokens + outputTokens + cachedInputTokens + reasoningTokens === 0) return undefined;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    cached_tokens: cachedInputTokens,
    ...(reasoningTokens > 0 ? { extra: { reasoning_tokens: reasoningTokens } } : {}),
  };
}

/** Adds a tool result to the agent step that made the call; a failed one is listed in `extra`. */
function addResult(step: AtifStep, m: Extract<Message, { role: "tool_result" }>): void {
  const results = step.observation?.results ?? [];
  results.push({
    source_call_id: m.callId,
    content: textOf(m),
    ...(m.isError ? { extra: { is_error: true } } : {}),
  });
  step.observation = { results };
  if (m.isError) {
    const failed = (step.extra?.failed_tool_calls as string[] | undefined) ?? [];
    step.extra = { ...step.extra, failed_tool_calls: [...failed, m.callId] };
  }
}

function orphanResult(m: Extract<Message, { role: "tool_result" }>): Omit<AtifStep, "step_id"> {
  return {
    source: "system",
    message: `Result of ${m.name} call ${m.callId}`,
    observation: {
      results: [{ content: textOf(m), ...(m.isError ? { extra: { is_error: true } } : {}) }],
    },
    extra: {
      tool_call_id: m.callId,
      function_name: m.name,
      ...(m.isError ? { failed: true } : {}),
    },
  };
}

/** A message's text; an image is named by its type (the file keeps no image files beside it). */
function textOf(m: Message): string {
  return m.blocks.map((b) => {
    if (b.type === "text") return b.text;
    if (b.type === "image") return `[image: ${b.mime}]\n`;
    return "";
  }).join("");
}

function finalMetrics(
  messages: readonly Message[],
  totalSteps: number,
  meta: TrajectoryMeta,
): AtifFinalMetrics {
  const usage = meta.usage ?? sumUsage(messages);
  const metrics: AtifFinalMetrics = {
    total_prompt_tokens: usage.inputTokens,
    total_completion_tokens: usage.outputTokens,
    total_cached_tokens: usage.cachedInputTokens,
    ...(meta.costUsd !== undefined ? { total_cost_usd: meta.costUsd } : {}),
    total_steps: totalSteps,
  };
  const extra = {
    ...(usage.reasoningTokens > 0 ? { total_reasoning_tokens: usage.reasoningTokens } : {}),
    ...meta.finalExtra,
  };
  return Object.keys(extra).length > 0 ? { ...metrics, extra } : metrics;
}

function sumUsage(messages: readonly Message[]): Usage {
  const sum = emptyUsage();
  for (const m of messages) if (m.role === "assistant") addUsage(sum, m.usage);
  return sum;
}
