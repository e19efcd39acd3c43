/**
 * The sub-agents of a session, read once at its start (loaded with `import()` by
 * lib/session/agent_session.ts): the definitions, the warnings to show once (files that do not
 * load, unknown tool names, name clashes), the prompt variables and harness that offer them, and
 * the runtime that runs them.
 */
import type { Harness, PromptVars } from "../../harness/types.ts";
import type { DefinedSubagents } from "./run_shape.ts";
import { setupContext, VENDOR_NAMES } from "../sources.ts";
import { discoverAgents } from "./discover.ts";
import { agentPromptVars, withAgentTypes } from "./listing.ts";
import { definedSubagents } from "./runtime.ts";
import { agentTools } from "./tools.ts";
import type { AgentDefinition } from "./types.ts";

/** What a session keeps of its defined sub-agents. */
export interface SessionSubagents {
  agents: readonly AgentDefinition[];
  runtime?: DefinedSubagents;
  /** The prompt variables listing them for `harness`. */
  promptVars(harness: Harness): Pick<PromptVars, "agentTypes" | "subagentEntries">;
  /** `harness` with them in its sub-agent tool's description, where the vendor lists them there. */
  offer(harness: Harness): Harness;
}

/** Finds the sub-agents of a session with `config`; every warning goes to `warn`, once. */
export async function sessionSubagents(
  config: Parameters<typeof setupContext>[0],
  opts: {
    env: Record<string, string | undefined>;
    isHeldBack?: (path: string) => boolean;
    warn: (message: string) => void;
  },
): Promise<SessionSubagents> {
  const warn = opts.warn;
  const { agents, warnings } = await discoverAgents(setupContext(config, opts));
  for (const warning of warnings) warn(warning);
  for (const agent of agents) {
    const { unknown } = agentTools(agent);
    if (unknown.length === 0) continue;
    warn(
      `The sub-agent ${agent.name} (${agent.source}) names tools interpreter does not know: ` +
        `${unknown.join(", ")}; it runs without them. Use ${VENDOR_NAMES[agent.vendor]}'s ` +
        "tool names (Read, Grep, Bash, Edit, ...)",
    );
  }
  return {
    agents,
    runtime: definedSubagents(agents),
    promptVars: (harness) => agentPromptVars(harness, agents),
    offer: (harness) => withAgentTypes(harness, agents),
  };
}
