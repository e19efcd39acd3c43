/**
 * What a run of a defined sub-agent works with (`DefinedSubagents`, used by
 * lib/session/subagent.ts): only the tools its file names, its body as the system prompt, the
 * model it names where the provider has it, and a read-only link when it asked to be read-only.
 * Its sandbox and approvals stay the parent's: a definition can narrow them, never widen them.
 */
import type { Harness } from "../../harness/types.ts";
import type { ToolHooks } from "../../loop/tool_hooks.ts";
import { systemText } from "../../model/message.ts";
import type { DefinedSubagents, SubagentShape } from "./run_shape.ts";
import { agentModel } from "./model.ts";
import { readOnlyHooks } from "./read_only.ts";
import { harnessTools, restrictHarness } from "./tools.ts";
import type { AgentDefinition } from "./types.ts";

/** The runtime of `agents` (none found: undefined, and sub-agents run as before). */
export function definedSubagents(agents: readonly AgentDefinition[]): DefinedSubagents | undefined {
  if (agents.length === 0) return undefined;
  const byName = new Map(agents.map((a) => [a.name, a]));
  return {
    shape(agentType, base): SubagentShape | undefined {
      const agent = byName.get(agentType);
      return agent ? shapeOf(agent, base) : undefined;
    },
  };
}

function shapeOf(
  agent: AgentDefinition,
  base: { harness: Harness; model: string; offered: readonly string[]; toolHooks: ToolHooks },
): SubagentShape {
  const { tools, readOnlyShell } = harnessTools(base.harness, agent);
  const { model, note } = agentModel(agent.model, base.model, base.offered);
  return {
    harness: restrictHarness(base.harness, tools),
    system: systemText(agent.prompt),
    model,
    toolHooks: agent.readOnly || readOnlyShell
      ? readOnlyHooks(base.toolHooks, agent.name)
      : base.toolHooks,
    mcp: tools.mcp,
    notes: note ? [`Sub-agent ${agent.name} (${agent.source}): ${note}`] : [],
  };
}
