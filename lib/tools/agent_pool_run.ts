/**
 * The work of the persistent sub-agent capabilities (`agent_pool_tools.ts`), loaded on their
 * first call: the session's pool (`ctx.agents`) does the work, this module words the answers.
 */
import { ToolError } from "../errors.ts";
import type { AgentInfo, AgentPool, ToolContext } from "./types.ts";

/** What every agent capability returns: the agent(s) as text and as JSON, and the main facts. */
export interface AgentPoolOutput {
  /** The agent the call was about (the first one for wait and list); empty for none. */
  agentId: string;
  name: string;
  status: string;
  /** The agent's last final answer. */
  finalText: string;
  timedOut: boolean;
  /** Every agent of the answer, one block each, in our words. */
  text: string;
  /** The answer as a JSON object (Codex's tools return JSON). */
  json: string;
}

/** A sub-agent as `shell.output` answers for a job (its fields; shell_background.ts). */
interface AgentAsJob {
  id: string;
  pid: number;
  command: string;
  description: string;
  status: "running" | "completed";
  exitCode: null;
  signal: null;
  output: string;
  truncated: boolean;
  retrieval: "not_ready" | "complete";
  outputPath: string;
}

/** Result of `agent.run`. */
export interface AgentRunOutput {
  /** The sub-agent's final answer. */
  finalText: string;
  description: string | undefined;
  subagentType: string | undefined;
  /** Tool calls the sub-agent made. */
  toolCalls: number;
  status: string;
  /** A background agent's id, for agent.send and agent.wait; empty in the foreground. */
  agentId: string;
}

/** One of Codex's input items: text, or a path or image the agent is told about. */
export interface InputItem {
  type?: string;
  text?: string;
  path?: string;
  image_url?: string;
  audio_url?: string;
  name?: string;
}

/** Longest wait a model may ask for (an hour). */
const MAX_WAIT_MS = 3_600_000;
/** A wait without a timeout. */
const DEFAULT_WAIT_MS = 30_000;

function poolOf(ctx: ToolContext): AgentPool {
  if (ctx.agents) return ctx.agents;
  throw new ToolError(
    "Sub-agents are not available here (a sub-agent cannot start or reach other agents)",
    "Do the task yourself with the other tools",
  );
}

/** The message and the items as one text; an item the agent cannot take is refused. */
function messageOf(message: string | undefined, items: InputItem[] | undefined): string {
  const parts = message?.trim() ? [message] : [];
  for (const item of items ?? []) {
    if (item.audio_url) {
      throw new ToolError("Audio items are not supported", "Describe the audio in text instead");
    }
    if (item.text) parts.push(item.text);
    const label = item.name ? ` (${item.name})` : "";
    if (item.path) parts.push(`Look at the file ${item.path}${label} with your tools.`);
    if (item.image_url) parts.push(`Image${label}: ${item.image_url}`);
  }
  const text = parts.join("\n\n");
  if (!text) throw new ToolError("The message is empty", "Give the agent a message or text items");
  return text;
}

/** One agent as a block of lines. */
function agentText(a: AgentInfo): string {
  const lines = [`agent_id: ${a.id}`, `name: ${a.name}`, `type: ${a.agentType}`];
  lines.push(`status: ${a.status}`);
  if (a.pending) lines.push(`queued_messages: ${a.pending}`);
  return lines.join("\n") + (a.lastText ? `\n\n${a.lastText}` : "");
}

function outputOf(agents: AgentInfo[], json: unknown, timedOut = false): AgentPoolOutput {
  const first = agents[0];
  return {
    agentId: first?.id ?? "",
    name: first?.name ?? "",
    status: first?.status ?? "",
    finalText: first?.lastText ?? "",
    timedOut,
    text: agents.length ? agents.map(agentText).join("\n\n") : "No agents.",
    json: JSON.stringify(json),
  };
}

/** An agent's status as JSON: its final text under its status once it has one. */
function statusJson(a: AgentInfo): unknown {
  if (a.status === "completed") return { completed: a.lastText };
  if (a.status === "failed") return { errored: a.lastText };
  return a.status;
}

export async function spawn(
  input: { prompt?: string; items?: InputItem[]; name?: string; subagent_type?: string },
  ctx: ToolContext,
): Promise<AgentPoolOutput> {
  const agent = await poolOf(ctx).spawn({
    prompt: messageOf(input.prompt, input.items),
    name: input.name,
    agentType: input.subagent_type,
    callId: ctx.callId,
  });
  return outputOf([agent], { agent_id: agent.id, nickname: agent.name });
}

export async function send(
  input: {
    target?: string;
    to?: string;
    message?: string;
    items?: InputItem[];
    interrupt?: boolean;
  },
  ctx: ToolContext,
): Promise<AgentPoolOutput> {
  const to = input.target ?? input.to;
  if (!to) throw new ToolError("No agent named", "Give the agent's id as the recipient");
  const message = messageOf(input.message, input.items);
  const agent = await poolOf(ctx).send(to, message, { interrupt: input.interrupt });
  return outputOf([agent], { agent_id: agent.id, status: agent.status });
}

export async function interrupt(input: { target: string }, ctx: ToolContext) {
  const agent = await poolOf(ctx).interrupt(input.target);
  return outputOf([agent], { agent_id: agent.id, interrupted: true });
}

export async function wait(
  input: { targets?: string[]; timeout_ms?: number },
  ctx: ToolContext,
): Promise<AgentPoolOutput> {
  const ms = Math.min(Math.max(0, input.timeout_ms ?? DEFAULT_WAIT_MS), MAX_WAIT_MS);
  const { timedOut, agents } = await poolOf(ctx).wait(input.targets ?? [], ms, ctx.signal);
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const status = Object.fromEntries(agents.map((a) => [a.id, statusJson(a)]));
  return outputOf(agents, { status, timed_out: timedOut }, timedOut);
}

export async function close(input: { target: string }, ctx: ToolContext) {
  const before = await poolOf(ctx).close(input.target);
  return outputOf([{ ...before, status: "closed" }], { previous_status: statusJson(before) });
}

export async function resume(input: { target: string }, ctx: ToolContext) {
  const agent = await poolOf(ctx).resume(input.target);
  return outputOf([agent], { status: statusJson(agent) });
}

export async function list(input: { prefix?: string }, ctx: ToolContext) {
  const prefix = (input.prefix ?? "").replace(/^\/root\/?/, "");
  const agents = (await poolOf(ctx).list())
    .filter((a) => a.name.startsWith(prefix) || a.id.startsWith(prefix));
  const json = {
    agents: agents.map((a) => ({
      agent_name: a.name,
      agent_id: a.id,
      agent_status: statusJson(a),
    })),
  };
  return outputOf(agents, json);
}

/**
 * A background sub-agent read as a task (Kimi's TaskOutput, whose tasks include agents): its
 * last report as the output, `completed` once it is not working, after waiting up to `waitMs`.
 */
export async function agentAsJob(
  id: string,
  waitMs: number,
  ctx: ToolContext,
): Promise<AgentAsJob> {
  const { agents: [a] } = await poolOf(ctx).wait([id], waitMs, ctx.signal);
  const done = a.status !== "running";
  return {
    id: a.id,
    pid: 0,
    command: `agent ${a.name}`,
    description: a.name,
    status: done ? "completed" : "running",
    exitCode: null,
    signal: null,
    output: a.lastText,
    truncated: false,
    retrieval: done ? "complete" : "not_ready",
    outputPath: "",
  };
}

/** A sub-agent closed as a task is stopped (Claude's TaskStop, Qwen's task_stop). */
export async function agentAsStopped(id: string, ctx: ToolContext) {
  const before = await poolOf(ctx).close(id);
  const wasRunning = before.status === "running";
  const command = `agent ${before.name}`;
  return {
    id: before.id,
    command,
    stopped: true as const,
    wasRunning,
    exitCode: null,
    signal: null,
  };
}

/** What `agent.swarm` returns: Kimi's `<agent_swarm_result>` text and the agents it used. */
export interface AgentSwarmOutput {
  text: string;
  completed: number;
  agentIds: string[];
}

/** Most items one swarm takes (Kimi's limit). */
const MAX_SWARM_ITEMS = 128;

/**
 * Kimi's AgentSwarm: one persistent sub-agent per item, all at once, each on the template with
 * `{item}` replaced by its item (the item added after it when the template has no `{item}`);
 * an item named in `resume_agent_ids` continues that agent instead. Waits for all of them.
 */
export async function swarm(
  input: {
    description: string;
    subagent_type?: string;
    prompt_template?: string;
    items?: string[];
    resume_agent_ids?: Record<string, unknown>;
  },
  ctx: ToolContext,
): Promise<AgentSwarmOutput> {
  const pool = poolOf(ctx);
  const items = input.items ?? [];
  if (!items.length || items.length > MAX_SWARM_ITEMS) {
    throw new ToolError(
      `A swarm needs 1 to ${MAX_SWARM_ITEMS} items; it got ${items.length}`,
      "List the items the template is run on",
    );
  }
  const template = input.prompt_template ?? input.description;
  const started: Array<{ item: string; id: string }> = [];
  for (const item of items) {
    const prompt = template.includes("{item}")
      ? template.replaceAll("{item}", item)
      : `${template}\n\n${item}`;
    const resumeId = input.resume_agent_ids?.[item];
    const agent = typeof resumeId === "string"
      ? await pool.send(resumeId, prompt)
      : await pool.spawn({ prompt, agentType: input.subagent_type, callId: ctx.callId });
    started.push({ item, id: agent.id });
  }
  const done: AgentInfo[] = [];
  for (const { id } of started) {
    done.push((await pool.wait([id], Infinity, ctx.signal)).agents[0]);
    if (ctx.signal.aborted) throw ctx.signal.reason;
  }
  const completed = done.filter((a) => a.status === "completed").length;
  const parts = started.map(({ item }, i) =>
    `<subagent item="${xmlAttr(item)}" agent_id="${done[i].id}" outcome="${done[i].status}">\n` +
    `${done[i].lastText}\n</subagent>`
  );
  const text = `<agent_swarm_result>\n<summary>completed: ${completed}</summary>\n` +
    `${parts.join("\n")}\n</agent_swarm_result>`;
  return { text, completed, agentIds: done.map((a) => a.id) };
}

function xmlAttr(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** What `agent.run` passes on for a kept sub-agent (its input fields). */
interface KeptRequest {
  prompt: string;
  description?: string;
  subagent_type?: string;
  name?: string;
  background?: boolean;
  resume?: string;
  timeout_s?: number;
}

/**
 * Runs the sub-agent in the session's pool of persistent agents: started (or, with `resume`,
 * sent the prompt), then waited for unless it goes to the background (Kimi's Agent keeps every
 * agent; Claude's and Qwen's keep background ones).
 */
export async function kept(
  input: KeptRequest,
  ctx: ToolContext,
): Promise<AgentRunOutput> {
  if (!ctx.agents) {
    throw new ToolError(
      "Background and resumable sub-agents are not available here",
      "Run the sub-agent in the foreground without resume, or do the task yourself",
    );
  }
  const started = input.resume
    ? await ctx.agents.send(input.resume, input.prompt)
    : await ctx.agents.spawn({
      prompt: input.prompt,
      name: input.name,
      agentType: input.subagent_type,
      callId: ctx.callId,
    });
  const waitMs = input.timeout_s === undefined ? Infinity : input.timeout_s * 1000;
  const agent = input.background
    ? started
    : (await ctx.agents.wait([started.id], waitMs, ctx.signal)).agents[0];
  if (ctx.signal.aborted) throw ctx.signal.reason;
  return {
    finalText: agent.status === "running" ? "" : agent.lastText,
    description: input.description,
    subagentType: agent.agentType,
    toolCalls: 0,
    status: agent.status,
    agentId: agent.id,
  };
}
