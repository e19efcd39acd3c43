/**
 * How the defined sub-agents are offered to the model, the way each vendor offers its own:
 * Claude Code lists agent types in a system reminder (`{{agent_types}}` in the claude-code
 * harness's agents.md), Gemini CLI in its system prompt's `<available_subagents>` block
 * (`{{subagent_entries}}`), Qwen Code and opencode in their sub-agent tool's description under
 * "Agent types:", Codex's `spawn_agent` in an `agent_type` argument (`withAgentTypes()`). With
 * no definitions every text is empty and every harness is unchanged: requests stay as they were.
 */
import type { Harness, HarnessTool, PromptVars } from "../../harness/types.ts";
import { harnessTools, toolNames } from "./tools.ts";
import type { AgentDefinition } from "./types.ts";

/** One agent type line: `- name: description (Tools: A, B)`. */
function typeLine(harness: Harness, agent: AgentDefinition, label: string): string {
  const { tools, readOnlyShell } = harnessTools(harness, agent);
  const names = tools.allowed === undefined
    ? allBut(harness, tools.denied)
    : toolNames(harness, tools).join(", ") || "no tools";
  const note = agent.readOnly || readOnlyShell ? "; read-only" : "";
  return `- ${agent.name}: ${oneLine(agent.description)} (${label}: ${names}${note})`;
}

/** "All tools", or "All tools except A, B" naming the harness's tools for `denied` capabilities. */
function allBut(harness: Harness, denied: ReadonlySet<string>): string {
  const names = harness.tools.filter((t) => !t.nested && denied.has(t.capability))
    .map((t) => t.declaration.name);
  return names.length ? `All tools except ${[...new Set(names)].join(", ")}` : "All tools";
}

/** The prompt variables that list `agents` for `harness`. */
export function agentPromptVars(
  harness: Harness,
  agents: readonly AgentDefinition[],
): Pick<PromptVars, "agentTypes" | "subagentEntries"> {
  if (agents.length === 0) return { agentTypes: "", subagentEntries: "" };
  const lines = agents.map((a) => typeLine(harness, a, "Tools"));
  return {
    agentTypes: "Also these agent types, defined for this project or by the user; each runs with " +
      "its own instructions and only the tools named:\n" + lines.join("\n"),
    subagentEntries: agents.map((a) =>
      `  <subagent>\n    <name>${xml(a.name)}</name>\n` +
      `    <description>${xml(oneLine(a.description))}</description>\n  </subagent>\n`
    ).join(""),
  };
}

/**
 * `harness` with `agents` added to the "Agent types:" list of its sub-agent tool's description
 * (Qwen Code's `agent`, opencode's `task`); the same harness when there is no such list.
 */
export function withAgentTypes(harness: Harness, agents: readonly AgentDefinition[]): Harness {
  if (agents.length === 0) return harness;
  let changed = false;
  const tools = harness.tools.map((tool) => {
    if (tool.declaration.name === "spawn_agent" && tool.capability === "agent.spawn") {
      changed = true;
      return withAgentTypeField(harness, tool, agents);
    }
    const description = tool.declaration.description ?? "";
    const at = description.indexOf("Agent types:\n");
    if (tool.capability !== "agent.run" || at < 0) return tool;
    const end = description.indexOf("\n\n", at);
    const cut = end < 0 ? description.length : end;
    const lines = agents.map((a) => `\n${typeLine(harness, a, "tools")}`).join("");
    changed = true;
    return {
      ...tool,
      declaration: {
        ...tool.declaration,
        description: description.slice(0, cut) + lines + description.slice(cut),
      },
    };
  });
  return changed ? { ...harness, tools } : harness;
}

/**
 * Codex's `spawn_agent` with an `agent_type` argument naming the defined agents (the field
 * earlier Codex releases were reported to take; unconfirmed for 0.171.0, see FORMATS.md).
 */
function withAgentTypeField(
  harness: Harness,
  tool: HarnessTool,
  agents: readonly AgentDefinition[],
): HarnessTool {
  const parameters = tool.declaration.parameters as { properties?: Record<string, unknown> };
  const lines = agents.map((a) => typeLine(harness, a, "tools")).join("\n");
  const agentType = {
    type: "string",
    enum: agents.map((a) => a.name),
    description: "Optional: run one of these agent types, with its own instructions and " +
      `tools (left out: a general agent):\n${lines}`,
  };
  return {
    ...tool,
    args: { ...tool.args, agent_type: "subagent_type" },
    declaration: {
      ...tool.declaration,
      parameters: {
        ...parameters,
        properties: { ...parameters.properties, agent_type: agentType },
      },
    },
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function xml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
