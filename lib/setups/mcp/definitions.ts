/**
 * The project's MCP servers in other agents' files (.mcp.json, .gemini/settings.json,
 * .qwen/settings.json, opencode.json, .cursor/mcp.json) as runnable definitions: what
 * `interpreter trust` lists and the REPL asks about at start, one per server (Claude Code's
 * per-server yes). The digest covers the server's mapped entry as written (variables not filled
 * in) and its file, so any change to either makes it untrusted again. Servers that lose a clash
 * or are disabled are not listed: they never start.
 */
import { definitionDigest, type RunnableDefinition } from "../../config/project_definitions.ts";
import type { McpServerEntry } from "../../config/schema.ts";
import type { SetupContext } from "../sources.ts";
import type { SetupMcpServer } from "./read.ts";
import { winningSetupServers } from "./servers.ts";

/** The project's enabled MCP servers from other agents' files; none for an untrusted project. */
export async function setupMcpDefinitions(ctx: SetupContext): Promise<RunnableDefinition[]> {
  if (!ctx.projectTrusted) return [];
  const { servers } = await winningSetupServers(ctx);
  const project = servers.filter((s) => s.scope === "project" && s.entry.enabled !== false);
  return await Promise.all(project.map(async (server) => ({
    kind: "mcp_server" as const,
    name: server.name,
    command: serverLine(server.entry),
    source: server.source,
    key: await setupMcpKey(server),
  })));
}

/** The digest under which the user's trust in `server` is kept. */
function setupMcpKey(server: SetupMcpServer): Promise<string> {
  const { enabled: _, ...definition } = server.entry;
  return definitionDigest(["mcp_server", server.name, server.source, definition]);
}

/** The command line with its env (or the URL with its header names), as written. */
function serverLine(entry: McpServerEntry): string {
  if (entry.url !== undefined) {
    const headers = Object.keys(entry.http_headers ?? {});
    return headers.length ? `${entry.url} (sends ${headers.join(", ")})` : entry.url;
  }
  const env = Object.entries(entry.env ?? {}).map(([k, v]) => shellWord(`${k}=${v}`));
  const line = [...env, ...[entry.command ?? "", ...entry.args ?? []].map(shellWord)].join(" ");
  return entry.cwd !== undefined ? `${line} (in ${entry.cwd})` : line;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
