import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";
import type { AgentPoolOutput, AgentRunOutput, AgentSwarmOutput } from "./agent_pool_run.ts";

import type { WorkflowOutput } from "./workflow_run.ts";

export type { AgentPoolOutput, AgentRunOutput, AgentSwarmOutput } from "./agent_pool_run.ts";
export type { WorkflowOutput } from "./workflow_run.ts";

/**
 * Input of `agent.run`. Harness mapping: Claude `Agent` and Qwen `agent` {description, prompt,
 * subagent_type, model}; opencode `task` {description, prompt, subagent_type}; Kimi `Agent`
 * {description, prompt, subagent_type, model}; Gemini `invoke_agent` {agent_name →
 * subagent_type, prompt}.
 */
const agentRunInput = z.object({
  prompt: z.string().min(1).describe("The task for the sub-agent, complete and self-contained"),
  description: z.string().optional().describe("Short label for the task, shown in progress"),
  subagent_type: z.string().optional().describe("Vendor sub-agent type; reported back"),
  model: z.string().optional()
    .describe("Accepted for vendor schemas; the sub-agent always uses the session's model"),
  background: z.boolean().optional()
    .describe("Start it in the background and return its id at once (see agent.wait)"),
  name: z.string().optional().describe("A name to address a background agent by"),
  resume: z.string().optional()
    .describe("Id of an earlier agent to continue with this prompt (its context kept)"),
  timeout_s: z.number().positive().optional()
    .describe("Most seconds to wait for a kept agent; it runs on in the background after"),
  persistent: z.boolean().optional()
    .describe("Keep the agent after it answers, so that a later call can resume it"),
});

/**
 * Runs a sub-agent: a nested turn of the same loop, with a fresh conversation, that returns its
 * final text. Needs `ctx.runSubagent`; a sub-agent that fails or stops early is a ToolError.
 */
export const agentRun = defineCapability({
  id: "agent.run",
  input: agentRunInput,
  // The call itself changes nothing; each of the sub-agent's own calls passes the approval hook.
  mutates: false,
  async run(input, ctx): Promise<AgentRunOutput> {
    if (input.background || input.resume || input.persistent) {
      return await (await import("./agent_pool_run.ts")).kept(input, ctx);
    }
    if (!ctx.runSubagent) {
      throw new ToolError(
        "Sub-agents are not available in this mode",
        "Do the task yourself with the other tools",
      );
    }
    const result = await ctx.runSubagent({
      prompt: input.prompt,
      description: input.description,
      agentType: input.subagent_type,
      callId: ctx.callId,
      progress: (chunk) => ctx.progress(chunk),
    });
    if (result.status === "aborted") {
      throw ctx.signal.reason ?? new DOMException("Aborted", "AbortError");
    }
    if (result.status !== "completed") {
      throw new ToolError(
        `Sub-agent did not finish (${result.status})${
          result.finalText ? `: ${result.finalText}` : ""
        }`,
        "Do the task yourself, or give the sub-agent a smaller task",
      );
    }
    return {
      finalText: result.finalText,
      description: input.description,
      subagentType: input.subagent_type,
      toolCalls: result.toolCalls,
      status: result.status,
      agentId: "",
    };
  },
});

// The persistent sub-agents (lib/session/agent_pool.ts): spawn, send (with interrupt),
// interrupt, wait (with a timeout), close, resume and list. Harness mapping: Codex
// `multi_agent_v1.*` and code mode's `collaboration.*`, Claude `SendMessage` and `ListAgents`,
// Qwen `send_message` and `list_agents`. Their work is in `agent_pool_run.ts`, loaded on the
// first call.

const work = () => import("./agent_pool_run.ts");

const target = z.string().min(1).describe("The agent: the id spawn returned, or its name");

/** Codex's input items: text, or a path or image the agent is told about. */
const items = z.array(z.object({
  type: z.string().optional(),
  text: z.string().optional(),
  path: z.string().optional(),
  image_url: z.string().optional(),
  audio_url: z.string().optional(),
  name: z.string().optional(),
})).optional().describe("Input items: text, or a path or image URL named to the agent");

/** `agent.spawn`: starts a sub-agent in the background and returns its id at once. */
export const agentSpawn = defineCapability({
  id: "agent.spawn",
  input: z.object({
    prompt: z.string().optional()
      .describe("The task for the sub-agent, complete and self-contained"),
    items,
    name: z.string().optional().describe("A name to address it by (unique in the session)"),
    subagent_type: z.string().optional().describe("Vendor sub-agent type; reported back"),
    model: z.string().optional()
      .describe("Accepted for vendor schemas; the sub-agent always uses the session's model"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).spawn(input, ctx),
});

/** `agent.send`: a message for a sub-agent, taken after its current step or at once. */
export const agentSend = defineCapability({
  id: "agent.send",
  input: z.object({
    target: target.optional(),
    to: z.string().optional().describe("Another spelling of target (give one of the two)"),
    message: z.string().optional().describe("The message"),
    items,
    interrupt: z.boolean().optional().describe("End what it is doing now and take this at once"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).send(input, ctx),
});

/** `agent.interrupt`: ends a sub-agent's current step; it stays open for more messages. */
export const agentInterrupt = defineCapability({
  id: "agent.interrupt",
  input: z.object({ target }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).interrupt(input, ctx),
});

/** `agent.wait`: until one of the agents is done, or the timeout. */
export const agentWait = defineCapability({
  id: "agent.wait",
  input: z.object({
    targets: z.array(z.string()).optional().describe("Agents to wait for; every open one if none"),
    timeout_ms: z.number().optional().describe("Most milliseconds to wait (default 30000)"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).wait(input, ctx),
});

/** `agent.close`: ends a sub-agent; its conversation is kept for `agent.resume`. */
export const agentClose = defineCapability({
  id: "agent.close",
  input: z.object({ target }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).close(input, ctx),
});

/** `agent.resume`: opens a closed sub-agent again. */
export const agentResume = defineCapability({
  id: "agent.resume",
  input: z.object({ target }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).resume(input, ctx),
});

/** `agent.list`: the session's sub-agents, those whose name starts with `prefix` when given. */
export const agentList = defineCapability({
  id: "agent.list",
  input: z.object({
    prefix: z.string().optional().describe("Only agents whose name or id starts with this"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<AgentPoolOutput> => (await work()).list(input, ctx),
});

/**
 * `agent.workflow` (Claude Code's `Workflow`): runs a script of sub-agent steps one after
 * another, each step's prompt able to use the previous step's report (`workflow_run.ts`).
 */
export const agentWorkflow = defineCapability({
  id: "agent.workflow",
  input: z.object({
    script: z.string().max(524_288).optional()
      .describe("The steps: each a sub-agent's prompt, separated by lines of ---"),
    scriptPath: z.string().optional().describe("A workspace file holding the script instead"),
    name: z.string().optional().describe("The run's name, shown in progress"),
    description: z.string().optional().describe("What the run is for"),
    title: z.string().optional().describe("A title, used as the name when there is none"),
    args: z.unknown().optional().describe("Values the steps read as {{args}}"),
    resumeFromRunId: z.string().regex(/^wf_[a-z0-9-]{6,}$/).optional()
      .describe("Go on with a stopped run from its first unfinished step"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<WorkflowOutput> =>
    (await import("./workflow_run.ts")).runWorkflow(input, ctx),
});

/** `agent.swarm` (Kimi's `AgentSwarm`): one sub-agent per item, all waited for. */
export const agentSwarm = defineCapability({
  id: "agent.swarm",
  input: z.object({
    description: z.string().min(1).describe("What the swarm does; the template when none"),
    subagent_type: z.string().min(1).optional().describe("Vendor sub-agent type"),
    prompt_template: z.string().min(1).optional().describe(
      "Each agent's prompt; {item} is its item",
    ),
    items: z.array(z.string()).max(128).optional().describe("One agent per item"),
    resume_agent_ids: z.record(z.string(), z.unknown()).optional()
      .describe("Item to agent id: continue that agent instead of starting one"),
  }),
  mutates: false,
  run: async (input, ctx): Promise<AgentSwarmOutput> =>
    (await import("./agent_pool_run.ts")).swarm(input, ctx),
});
