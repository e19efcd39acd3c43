/**
 * `interpreter mcp-server`: the agent as an MCP server on stdin and stdout, speaking as the
 * Codex MCP server does (its `initialize` answer, the `codex` and `codex-reply` tools,
 * `codex/event` progress, approvals by `elicitation/create`), through the official SDK, on the
 * stdio runner the ACP agent uses too (`session/stdio_protocol.ts`).
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type Implementation,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { SessionConfig } from "../../session/open.ts";
import { serveStdio } from "../../session/stdio_protocol.ts";
import { VERSION } from "../../version.ts";
import { CODEX_REPLY_TOOL, CODEX_TOOL } from "./codex_tools.ts";
import { MessagesTransport } from "./messages_transport.ts";
import { CodexThreads } from "./threads.ts";

/** The `serverInfo` of the `initialize` answer: the Codex MCP server's names, our version. */
export function serverInfo(): Implementation & { user_agent: string } {
  return {
    name: "codex-mcp-server",
    title: "Codex",
    version: VERSION,
    user_agent: `interpreter/${VERSION} (${Deno.build.os}; ${Deno.build.arch})`,
  };
}

/** Serves MCP on stdio (`serveStdio`) until stdin ends or a stop signal comes; sessions use `config`. */
export function runMcpServer(config: SessionConfig): Promise<number> {
  const server = new Server(serverInfo(), { capabilities: { tools: { listChanged: true } } });
  const canElicit = () => server.getClientCapabilities()?.elicitation !== undefined;
  return serveStdio({
    name: "mcp-server",
    open: (log) => new CodexThreads(config, { env: Deno.env.toObject(), log, canElicit }),
    async connect(threads, messages, log) {
      server.setRequestHandler(
        ListToolsRequestSchema,
        () => ({ tools: [CODEX_TOOL, CODEX_REPLY_TOOL] }),
      );
      server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
        return threads.call(request.params.name, request.params.arguments, extra);
      });
      server.onerror = (error) => log(error.message);
      const { promise: closed, resolve } = Promise.withResolvers<void>();
      server.onclose = resolve;
      await server.connect(new MessagesTransport(messages));
      return { closed, close: () => server.close() };
    },
  });
}
