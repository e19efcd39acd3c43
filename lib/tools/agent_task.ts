import * as z from "zod";
import { ToolError } from "../errors.ts";
import { defineCapability } from "./capability.ts";

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
});

/** Result of `agent.run`. */
export interface AgentRunOutput {
  /** The sub-agent's final answer. */
  finalText: string;
  description: string | undefined;
  subagentType: string | undefined;
  /** Tool calls the sub-agent made. */
  toolCalls: number;
  status: string;
}

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
    };
  },
});
