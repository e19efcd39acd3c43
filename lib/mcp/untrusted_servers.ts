/**
 * The MCP servers of a project whose definitions the user has not trusted: they are not
 * started, and `/mcp` lists them as untrusted with how to trust them (`interpreter trust`).
 */
import type { McpServerEntry } from "../config/schema.ts";
import type { McpServerView } from "../tools/mcp_hub.ts";

/** Why an untrusted server is not started, and how to start it. */
export const UNTRUSTED_REASON = "its definition in the project's config is not trusted yet, so " +
  'it was not started; review and trust it with "interpreter trust" in a shell, then start a ' +
  "new session";

/** How `/mcp` shows untrusted server `id`. */
export function untrustedView(id: string, entry: McpServerEntry): McpServerView {
  const remote = entry.url !== undefined;
  return {
    id,
    transport: remote ? "streamable_http" : "stdio",
    target: remote ? entry.url! : [entry.command ?? "", ...(entry.args ?? [])].join(" "),
    status: "untrusted",
    reason: UNTRUSTED_REASON,
    tools: [],
  };
}
