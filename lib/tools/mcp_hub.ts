/**
 * What a session's MCP servers offer besides their tools (those come in as tool sources,
 * `tool_source.ts`): the servers' states for `/mcp`, their resources for the harnesses'
 * resource tools, and their prompts for the REPL's `/mcp__SERVER__PROMPT` commands.
 * `lib/mcp/` implements it; tools reach it as `ctx.mcp`, front ends as `session.mcp`.
 */
import type { McpOutputCaps } from "./mcp_output_caps.ts";

/** Where a server stands; `untrusted`: a project's server not started until the user trusts it. */
export type McpServerStatus = "starting" | "ready" | "failed" | "needs_login" | "untrusted";

/** One configured and enabled server, as `/mcp` shows it. */
export interface McpServerView {
  /** The `[mcp_servers.ID]` id. */
  id: string;
  transport: "stdio" | "streamable_http";
  /** The command line (stdio) or the URL (streamable HTTP). */
  target: string;
  status: McpServerStatus;
  /** Why it failed or needs a login, in one sentence that names the fix. */
  reason?: string;
  /** It exited on its own and is started again (once) when next used: failed until then. */
  restartsOnUse?: true;
  /** Where a stdio server's stderr goes. */
  logFile?: string;
  /** Its tools after `enabled_tools` / `disabled_tools` (empty until it is ready). */
  tools: McpToolView[];
  /** For a server of another agent's file: the file and vendor ("/repo/.mcp.json (Claude Code)"). */
  source?: string;
}

/** One tool of a server. */
export interface McpToolView {
  /** The server's own name for it. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A resource a server lists. */
export interface McpResource {
  server: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** One part of a resource read: text, or base64 bytes. */
export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A prompt a server offers. */
export interface McpPrompt {
  server: string;
  name: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required?: boolean }>;
}

/**
 * The session's MCP servers. Calls to a server that is not ready throw an `Error` whose message
 * says why (for a tool, a ToolError the model can act on).
 */
export interface McpHub {
  servers(): McpServerView[];
  /** The resources of `server`, or of every ready server when it is undefined. */
  listResources(server: string | undefined, signal: AbortSignal): Promise<McpResource[]>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContent[]>;
  /** How much of `server`'s answers reaches the model; the defaults when absent. */
  outputCaps?(server: string): McpOutputCaps;
  /** The prompts of every ready server. */
  listPrompts(signal: AbortSignal): Promise<McpPrompt[]>;
  /** The prompt's messages as one text to send as the user's prompt. */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string>;
}

/** The hub of a session without MCP servers. */
export const NO_MCP_SERVERS: McpHub = {
  servers: () => [],
  listResources: () => Promise.resolve([]),
  readResource: (server) => Promise.reject(new Error(`No MCP server "${server}" is configured`)),
  listPrompts: () => Promise.resolve([]),
  getPrompt: (server) => Promise.reject(new Error(`No MCP server "${server}" is configured`)),
};
