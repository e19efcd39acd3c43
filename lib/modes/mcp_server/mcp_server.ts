// deno-lint-ignore-file no-console -- the user interface layer prints (STYLE.md)
/**
 * `interpreter mcp-server`: the agent as an MCP server on stdin and stdout, speaking as the
 * Codex MCP server does (its `initialize` answer, the `codex` and `codex-reply` tools,
 * `codex/event` progress, approvals by `elicitation/create`), through the official SDK. Stdout
 * carries the protocol and nothing else; logs go to stderr.
 */
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type Implementation,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { SessionConfig } from "../../session/open.ts";
import { VERSION } from "../../version.ts";
import { CODEX_REPLY_TOOL, CODEX_TOOL } from "./codex_tools.ts";
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

/** Serves MCP on stdio until stdin ends or a stop signal comes; sessions use `config`. */
export async function runMcpServer(config: SessionConfig): Promise<number> {
  keepStdoutForProtocol();
  const log = (line: string) => console.error(`mcp-server: ${line}`);
  const server = new Server(serverInfo(), { capabilities: { tools: { listChanged: true } } });
  const canElicit = () => server.getClientCapabilities()?.elicitation !== undefined;
  await using threads = new CodexThreads(config, { env: Deno.env.toObject(), log, canElicit });
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: [CODEX_TOOL, CODEX_REPLY_TOOL] }),
  );
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    return threads.call(request.params.name, request.params.arguments, extra);
  });
  server.onerror = (error) => log(error.message);
  const { promise: ended, resolve: end } = Promise.withResolvers<void>();
  process.stdin.once("end", end);
  process.stdin.once("close", end);
  server.onclose = end;
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) Deno.addSignalListener(signal, end);
  try {
    await server.connect(new StdioServerTransport());
    await ended;
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, end);
  }
  // `threads` closes its sessions here, before the transport stops listening.
  return 0;
}

/**
 * Sends what anything would print to stdout to stderr instead: stdout carries the protocol, and
 * a stray line there would break the client's reading of it.
 */
function keepStdoutForProtocol(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}
