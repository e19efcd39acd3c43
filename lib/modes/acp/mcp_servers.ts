/**
 * The MCP servers an editor gives `session/new` and `session/load`, as `[mcp_servers.ID]` config
 * values over the config files' (the client's server of a name wins): stdio servers with their
 * command, arguments and environment, HTTP servers with their URL and headers.
 */
import type { McpServer } from "@agentclientprotocol/sdk";
import type { ConfigOverride } from "../../session/types.ts";
import { UsageError } from "../../errors.ts";

/** Config overrides that add the client's `servers` to the session. */
export function mcpServerOverrides(servers: McpServer[]): ConfigOverride[] {
  const taken = new Set<string>();
  return servers.map((server) => {
    const id = uniqueId(server.name, taken);
    const where = `the client's MCP server "${server.name}"`;
    return { keyPath: ["mcp_servers", id], value: entryOf(server), origin: where, where };
  });
}

function entryOf(server: McpServer): Record<string, unknown> {
  if ("type" in server && server.type === "sse") {
    throw new UsageError(
      `Cannot start MCP server "${server.name}": this agent does not speak the SSE transport`,
      { hint: "Give the server's streamable HTTP URL (type http), or run it over stdio" },
    );
  }
  if ("type" in server && server.type === "http") {
    return { url: server.url, http_headers: pairs(server.headers) };
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  return { command: stdio.command, args: stdio.args, env: pairs(stdio.env) };
}

function pairs(list: Array<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}

/**
 * A server id from the client's name: the characters tool names allow (`mcp__ID__tool`), others
 * and runs of `_` as one `_`, and a number after one that is taken.
 */
function uniqueId(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/_{2,}/g, "_") || "server";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
