/**
 * The approval modes of MCP tools, inside the approval link: `[mcp_servers.ID.tools.NAME]
 * approval_mode`, else the server's `default_tools_approval_mode`, else `auto`. `auto` leaves the
 * call to the approval policy like any other (a tool marked `readOnlyHint` counts as a read),
 * `prompt` asks the user before every call (and is refused where no one can answer, as in exec
 * without a terminal), `approve` never asks.
 */
import type { McpServerEntry } from "../config/schema.ts";
import { SOURCE_CAPABILITY_PREFIX } from "../loop/tool_sources.ts";
import type { ApprovalCheck } from "./approval.ts";

/** An MCP tool's approval mode and where it was set. */
export interface McpToolMode {
  server: string;
  tool: string;
  mode: "auto" | "prompt" | "approve";
  /** The config key that set it, as in `approval_mode in [mcp_servers.fs.tools.write_file]`. */
  setBy?: string;
}

/** The mode of the call to `capability` when it is a configured server's tool. */
export function mcpToolMode(
  servers: Record<string, McpServerEntry>,
  capability: string,
): McpToolMode | undefined {
  if (!capability.startsWith(SOURCE_CAPABILITY_PREFIX)) return undefined;
  const rest = capability.slice(SOURCE_CAPABILITY_PREFIX.length);
  // The longest id that fits, should one server id be a prefix of another ("a" and "a/b").
  const id = Object.keys(servers)
    .filter((key) => rest.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (id === undefined) return undefined;
  const entry = servers[id];
  const tool = rest.slice(id.length + 1);
  const own = entry.tools?.[tool]?.approval_mode;
  if (own) {
    return {
      server: id,
      tool,
      mode: own,
      setBy: `approval_mode in [mcp_servers.${id}.tools.${tool}]`,
    };
  }
  const fallback = entry.default_tools_approval_mode;
  if (fallback) {
    return {
      server: id,
      tool,
      mode: fallback,
      setBy: `default_tools_approval_mode in [mcp_servers.${id}]`,
    };
  }
  return { server: id, tool, mode: "auto" };
}

/** `check` with the MCP servers' approval modes applied before it (see the module comment). */
export function withMcpApprovalModes(
  check: ApprovalCheck,
  servers: Record<string, McpServerEntry>,
): ApprovalCheck {
  return (call, resolved, signal) => {
    const found = mcpToolMode(servers, resolved.capability);
    if (!found || found.mode === "auto") return check(call, resolved, signal);
    if (found.mode === "approve") return Promise.resolve({ allow: true });
    const askReason = `${found.setBy} is "prompt": every call of ${found.tool} is asked about`;
    return check(call, { ...resolved, askReason }, signal);
  };
}
