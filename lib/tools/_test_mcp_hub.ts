/**
 * A session's MCP servers without processes: each fake server has a state, resources and
 * prompts, and answers like the real hub (not-ready servers and unknown URIs reject). Test helper.
 */
import type {
  McpHub,
  McpPrompt,
  McpResource,
  McpResourceContent,
  McpServerStatus,
} from "./mcp_hub.ts";

/** One fake server. */
export interface FakeMcpServer {
  id: string;
  status?: McpServerStatus;
  reason?: string;
  /** Its resources, each with what a read returns. */
  resources?: Array<Omit<McpResource, "server"> & { contents: McpResourceContent[] }>;
  /** Its prompts, each with the text `getPrompt` returns for the arguments given. */
  prompts?: Array<Omit<McpPrompt, "server"> & { text(args: Record<string, string>): string }>;
}

/** The hub of `servers`; `calls` records each request as `method server [detail]`. */
export function fakeMcpHub(servers: FakeMcpServer[]): McpHub & { calls: string[] } {
  const calls: string[] = [];
  const ready = (id: string) => {
    const server = servers.find((s) => s.id === id);
    if (!server) throw new Error(`No MCP server "${id}" is configured`);
    if ((server.status ?? "ready") !== "ready") {
      throw new Error(`MCP server "${id}" is ${server.status}`);
    }
    return server;
  };
  const readyOnes = () => servers.filter((s) => (s.status ?? "ready") === "ready");
  return {
    calls,
    servers: () =>
      servers.map((s) => ({
        id: s.id,
        transport: "stdio",
        target: `fake-${s.id}`,
        status: s.status ?? "ready",
        ...(s.reason ? { reason: s.reason } : {}),
        tools: [],
      })),
    listResources(server) {
      calls.push(`resources/list ${server ?? "*"}`);
      const from = server === undefined ? readyOnes() : [ready(server)];
      return Promise.resolve(
        from.flatMap((s) =>
          (s.resources ?? []).map(({ contents: _, ...r }) => ({ ...r, server: s.id }))
        ),
      );
    },
    readResource(server, uri) {
      calls.push(`resources/read ${server} ${uri}`);
      const found = ready(server).resources?.find((r) => r.uri === uri);
      if (!found) return Promise.reject(new Error(`MCP error -32002: Resource not found: ${uri}`));
      return Promise.resolve(found.contents);
    },
    listPrompts() {
      calls.push("prompts/list");
      return Promise.resolve(
        readyOnes().flatMap((s) =>
          (s.prompts ?? []).map(({ text: _, ...p }) => ({ ...p, server: s.id }))
        ),
      );
    },
    getPrompt(server, name, args) {
      calls.push(`prompts/get ${server} ${name} ${JSON.stringify(args)}`);
      const prompt = ready(server).prompts?.find((p) => p.name === name);
      if (!prompt) return Promise.reject(new Error(`MCP error -32602: Unknown prompt: ${name}`));
      return Promise.resolve(prompt.text(args));
    },
  };
}
