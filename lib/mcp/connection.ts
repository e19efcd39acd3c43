/**
 * One connection to one MCP server through the official SDK's `Client`: a stdio server's process
 * in its own process group (`stdio_transport.ts`; its stderr appended to its log file, never the
 * screen) or a streamable-HTTP endpoint, initialized and its tools listed within the startup
 * timeout. A failure says what went wrong in one sentence (`StartError`); a connection that ends
 * on its own is reported once.
 *
 * Every import from an SDK subpath carries a `// @ts-types` line naming the same path without
 * `.js`: the SDK's `./*` export maps types to `./dist/esm/*.d.ts`, so `client/index.js` would
 * look for a missing `client/index.js.d.ts` and type-check as `any`.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { dirname } from "node:path";
import { VERSION } from "../version.ts";
import { mcpAuthProvider, needsLogin } from "./oauth_provider.ts";
import type { HttpLaunch, McpLaunch } from "./launch.ts";
import { StdioTransport } from "./stdio_transport.ts";
import type { McpTool } from "./tool_result.ts";
import { mcpErrorCode, StartError } from "./start_error.ts";

export { mcpErrorCode, StartError };

/** A started server. */
export interface Connection {
  client: Client;
  /** Its tools as last listed (every page). */
  tools: McpTool[];
  close(): Promise<void>;
}

/** What a connection reports and where it writes. */
export interface ConnectOptions {
  home: string;
  /** The stdio server's log file. */
  logFile?: string;
  /** The connection ended without `close()` (the process exited, the stream broke). */
  onLost(): void;
  /** The server changed its tools; `tools` is the new listing. */
  onToolsChanged(tools: McpTool[]): void;
  /** Gives up a start under way (the session is closing). */
  signal?: AbortSignal;
}

/**
 * Connects to `launch` and lists its tools within its startup timeout; throws `StartError`. The
 * process of a server that does not make it in time is stopped before this returns.
 */
export async function connect(launch: McpLaunch, opts: ConnectOptions): Promise<Connection> {
  const target = launch.target;
  if ("problem" in target) throw new StartError(`Cannot start it: ${target.problem}`);
  const log = target.transport === "stdio" && opts.logFile
    ? await openLog(opts.logFile, launch.display)
    : undefined;
  const transport = target.transport === "stdio"
    ? new StdioTransport(target, (chunk) => log?.write(chunk))
    : httpTransport(launch.id, target, opts.home);
  const client = new Client({ name: "interpreter", version: VERSION });
  let closing = false;
  const close = async () => {
    closing = true;
    await client.close().catch(() => {});
    log?.close();
  };
  client.onclose = () => {
    log?.close();
    if (!closing) opts.onLost();
  };
  const conn: Connection = { client, tools: [], close };
  const phase = { now: "initialize" };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    // While it starts, the listing of the start sees the change itself.
    if (phase.now !== "ready") return;
    const tools = await listTools(client).catch(() => undefined);
    if (tools) opts.onToolsChanged(conn.tools = tools);
  });
  try {
    await withDeadline(launch.startupTimeoutMs, opts.signal, async (signal) => {
      await client.connect(transport, { signal, timeout: launch.startupTimeoutMs });
      phase.now = "tools/list";
      conn.tools = await listTools(client, signal);
    });
  } catch (error) {
    await close();
    throw startError(error, launch, phase.now);
  }
  phase.now = "ready";
  return conn;
}

/** Every page of `tools/list`. */
async function listTools(client: Client, signal?: AbortSignal): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function httpTransport(id: string, target: HttpLaunch, home: string): Transport {
  return new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: target.headers },
    authProvider: mcpAuthProvider(home, id, target.url),
  });
}

/**
 * Runs `work` with a signal that fires after `ms` (a `TimeoutError`) or when `outer` does (its
 * reason), whichever comes first; either ends the wait at once.
 */
async function withDeadline(
  ms: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<void>,
) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stop = new Promise<never>((_, reject) => {
    const end = (error: unknown) => {
      controller.abort(error);
      reject(error);
    };
    timer = setTimeout(() => end(new DOMException("deadline passed", "TimeoutError")), ms);
    onAbort = () => end(outer?.reason);
    if (outer?.aborted) onAbort();
    outer?.addEventListener("abort", onAbort);
  });
  try {
    await Promise.race([work(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

/** One sentence on why the start failed. */
function startError(error: unknown, launch: McpLaunch, phase: string): StartError {
  const seconds = launch.startupTimeoutMs / 1000;
  if (isTimeout(error)) {
    return new StartError(
      `It did not answer ${phase} within ${seconds} s (startup_timeout_sec)`,
      { cause: error },
    );
  }
  if (needsLogin(error, launch.entry)) {
    return new StartError(
      `It needs a login: run "interpreter mcp login ${launch.id}"`,
      { needsLogin: true, cause: error },
    );
  }
  if (mcpErrorCode(error) === 401) {
    return new StartError(
      "It refused the token it was given (HTTP 401): check the variable or header that holds it",
      { cause: error },
    );
  }
  if (mcpErrorCode(error) === ErrorCode.ConnectionClosed) {
    return new StartError(`It exited before it answered ${phase}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { code?: unknown }).code === "ENOENT") {
    return new StartError(`Cannot run "${launch.display}": the command was not found`, {
      cause: error,
    });
  }
  return new StartError(`It failed during ${phase}: ${message}`, { cause: error });
}

function isTimeout(error: unknown): boolean {
  if (error instanceof DOMException) return error.name === "TimeoutError";
  return mcpErrorCode(error) === ErrorCode.RequestTimeout;
}

interface LogFile {
  write(chunk: Uint8Array): void;
  close(): void;
}

/** The server's log, appended to, with a line saying when and what was started. */
async function openLog(path: string, display: string): Promise<LogFile> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const file = await Deno.open(path, { append: true, create: true });
  let open = true;
  const write = (chunk: Uint8Array) => {
    if (!open) return;
    try {
      file.writeSync(chunk);
    } catch {
      // A log that cannot be written loses lines, never the server.
    }
  };
  write(new TextEncoder().encode(`--- ${new Date().toISOString()} starting: ${display}\n`));
  return {
    write,
    close() {
      if (!open) return;
      open = false;
      file.close();
    },
  };
}
