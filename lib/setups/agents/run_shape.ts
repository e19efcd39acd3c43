/**
 * The seam between the session's sub-agent runs (lib/session/subagent.ts) and the sub-agents
 * people define (lib/setups/agents): what a run of a defined type works with.
 */
import type { Harness } from "../../harness/types.ts";
import type { ToolHooks } from "../../loop/tool_hooks.ts";
import type { SystemPart } from "../../model/message.ts";

/** A defined sub-agent as one run of it uses it (runtime.ts). */
export interface SubagentShape {
  /** The parent's harness with only the tools the definition names. */
  harness: Harness;
  /** Its own system prompt. */
  system: SystemPart[];
  model: string;
  /** The parent's links, with a read-only one first when the definition asks for it. */
  toolHooks: ToolHooks;
  /** MCP tools are offered. */
  mcp: boolean;
  /** Told to the user (a model it asked for that the provider does not have). */
  notes: string[];
}

/** The defined sub-agents: the shape of a run of `agentType`, undefined for a built-in type. */
export interface DefinedSubagents {
  shape(
    agentType: string,
    base: { harness: Harness; model: string; offered: readonly string[]; toolHooks: ToolHooks },
  ): SubagentShape | undefined;
}
