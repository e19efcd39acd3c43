/**
 * Tools a harness offers only in some sessions: a `[[tools]]` entry with `when` is kept only
 * when the session has what it names. Claude Code and Codex send their MCP resource tools only
 * when MCP servers are configured (`when = "mcp_servers"`). The session applies this to every
 * harness it runs with, so the tools sent, the deferred names in the prompt and the tool
 * search all agree.
 */
import type { Harness } from "./types.ts";

/** The capabilities of plan mode's tools, which need someone to approve the plan. */
const PLAN_CAPABILITIES = ["plan.enter", "plan.exit"];

/** What the session has, for the tools' `when`. */
export interface SessionFacts {
  /** One or more MCP servers are configured and enabled. */
  mcpServers: boolean;
  /**
   * Someone can answer the session's questions (a terminal or a client); when false, the plan
   * tools are left out, as no one could approve a plan (Claude Code run headless sends none).
   */
  canAsk?: boolean;
}

/** `h` without the tools whose `when` the session does not meet (`h` itself when none). */
export function toolsForSession(h: Harness, facts: SessionFacts): Harness {
  const kept = h.tools.filter((t) =>
    (t.when === undefined || meets(t.when, facts)) &&
    !(facts.canAsk === false && PLAN_CAPABILITIES.includes(t.capability))
  );
  return kept.length === h.tools.length ? h : { ...h, tools: kept };
}

function meets(condition: "mcp_servers", facts: SessionFacts): boolean {
  switch (condition) {
    case "mcp_servers":
      return facts.mcpServers;
  }
}
