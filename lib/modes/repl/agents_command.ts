/**
 * `/agents`: the sub-agent types the session offers: the harness's built-in ones, then those
 * users and projects defined in our own and other agents' files (issue 33), each with its
 * vendor, source file, tools and model.
 */
import { terminalSafe } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import { VENDOR_NAMES } from "../../setups/sources.ts";
import { type AgentDefinition, HARNESS_AGENT_TYPES } from "../../setups/agents/types.ts";
import type { Style } from "../term/style.ts";
import { shownPath } from "./shown_path.ts";

/** What `/agents` reaches of the REPL. */
interface AgentsContext {
  session(): Pick<Session, "definedAgents" | "info">;
  print(lines: string[]): void;
  style: Style;
}

/** The lines `/agents` prints. */
export function agentsLines(
  harness: string,
  defined: readonly AgentDefinition[],
  cwd: string,
  style: Style,
): string[] {
  const builtins = HARNESS_AGENT_TYPES[harness]?.join(", ") ??
    "its general sub-agent, where the harness has a sub-agent tool";
  const lines = [`${style.bold("Built-in")} (${harness}): ${builtins}`];
  if (defined.length === 0) {
    lines.push(
      "No sub-agents defined (in .agents/agents, .claude/agents, .gemini/agents, .qwen/agents, " +
        ".codex/agents, .opencode/agent or the same folders in your home)",
    );
    return lines;
  }
  for (const a of terminalSafe(defined)) {
    const where = shownPath(a.source, cwd);
    const vendor = VENDOR_NAMES[a.vendor];
    const facts = [
      `tools: ${a.tools?.join(", ") ?? "all"}`,
      ...(a.model ? [`model: ${a.model}`] : []),
      ...(a.readOnly ? ["read-only"] : []),
    ];
    lines.push(`${style.bold(a.name)}  ${a.description}`);
    lines.push(`  ${style.dim(`${a.scope}, ${vendor}: ${where}  (${facts.join("; ")})`)}`);
  }
  return lines;
}

/** The `/agents` command. */
export const AGENTS_COMMAND = {
  name: "agents",
  summary: "sub-agent types: built-in and defined, with the file each comes from",
  run: (_: string, ctx: AgentsContext): Promise<void> => {
    const session = ctx.session();
    const defined = session.definedAgents?.() ?? [];
    ctx.print(agentsLines(session.info.harness, defined, session.info.cwd, ctx.style));
    return Promise.resolve();
  },
};
