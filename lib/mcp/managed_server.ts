/**
 * One configured MCP server through a session: started once, its tools offered as a tool source,
 * each call bounded by `tool_timeout_sec`. Its faults are told once as a warning line (id, what
 * happened, the log) and its tools then answer with errors the model can act on; a stdio server
 * that exits is started again, once, on its next call or resource or prompt request.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.ts";
import type { McpServerStatus, McpServerView } from "../tools/mcp_hub.ts";
import type { SourceTool, SourceToolResult, ToolSource } from "../tools/tool_source.ts";
import type { ToolContext } from "../tools/types.ts";
import type { Connection } from "./connection.ts";
import { MCP_ERROR_CODE, mcpErrorCode, StartError } from "./start_error.ts";
import type { McpLaunch } from "./launch.ts";
import { type McpTool, resultForModel, type ToolShape, toolShape } from "./tool_result.ts";

/** What a server needs from its session. */
export interface ServerContext {
  home: string;
  /** Where a stdio server's stderr goes. */
  logFile?: string;
  /** Shows one line to the user (a session `warning` event). */
  warn(message: string): void;
}

type State =
  | { status: "starting"; started: Promise<void> }
  | { status: "ready"; conn: Connection }
  /** Exited on its own; started again on its next call, once. */
  | { status: "lost"; reason: string }
  | { status: "failed" | "needs_login"; reason: string };

/** A configured server and its tools (see the module comment). */
export class ManagedServer implements ToolSource {
  readonly id: string;
  readonly launch: McpLaunch;
  readonly #ctx: ServerContext;
  #state: State;
  /** The tools of the last listing, after `enabled_tools` / `disabled_tools`. */
  #tools: ToolShape[] = [];
  #restarted = false;
  /** Fires when the session closes, ending a start under way. */
  readonly #closing = new AbortController();

  /** Starts it at once; `started` settles when it is ready or has failed (it never rejects). */
  constructor(launch: McpLaunch, ctx: ServerContext) {
    this.id = launch.id;
    this.launch = launch;
    this.#ctx = ctx;
    this.#state = { status: "starting", started: this.#start() };
  }

  /** Settles once the first start has ended either way. */
  get started(): Promise<void> {
    return this.#state.status === "starting" ? this.#state.started : Promise.resolve();
  }

  /** Where it stands; one that exited and waits for its restart counts as failed until then. */
  get status(): McpServerStatus {
    const { status } = this.#state;
    return status === "lost" ? "failed" : status;
  }

  /** Why it failed or needs a login. */
  get reason(): string | undefined {
    return "reason" in this.#state ? this.#state.reason : undefined;
  }

  /** Waits for a start under way (its startup timeout bounds it), then offers its tools. */
  async tools(signal: AbortSignal): Promise<SourceTool[]> {
    if (this.#state.status === "starting") await abortable(this.#state.started, signal);
    return this.#tools.map((shape) => ({
      ...shape,
      run: (input: Record<string, unknown>, ctx: ToolContext) => this.call(shape.name, input, ctx),
    }));
  }

  /**
   * The SDK client of a ready server, for resources and prompts; a server that exited is started
   * again first, once, as for a tool call. An Error saying why there is none.
   */
  async client(): Promise<Client> {
    this.#restartIfLost();
    await this.started;
    if (this.#state.status === "ready") return this.#state.conn.client;
    throw new Error(`MCP server "${this.id}" is not available: ${this.reason ?? "it is starting"}`);
  }

  /** Calls tool `name`; failures come back as ToolErrors the model can act on. */
  async call(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<SourceToolResult> {
    const conn = await this.#connection();
    const seconds = this.launch.toolTimeoutMs / 1000;
    try {
      const result = await conn.client.callTool({ name, arguments: args }, undefined, {
        signal: ctx.signal,
        timeout: this.launch.toolTimeoutMs,
        onprogress: (p) =>
          ctx.progress({
            stream: "status",
            text: p.message ?? `${p.progress}${p.total ? ` of ${p.total}` : ""}`,
          }),
      });
      // The default result schema is `CallToolResultSchema`; the declared return type also names
      // the old `{ toolResult }` form, which only `CompatibilityCallToolResultSchema` gives.
      return resultForModel(result as CallToolResult, name, this.launch.outputCaps);
    } catch (error) {
      if (error instanceof ToolError || ctx.signal.aborted) throw asToolError(error);
      if (mcpErrorCode(error) === MCP_ERROR_CODE.RequestTimeout) {
        this.#ctx.warn(
          `MCP server "${this.id}" did not answer ${name} within ${seconds} s; the call was ` +
            `cancelled${this.#logNote()}`,
        );
        throw new ToolError(
          `The MCP tool ${name} did not answer within ${seconds} s, so it was cancelled`,
          "Try again with less work, or carry on without it",
        );
      }
      if (mcpErrorCode(error) === MCP_ERROR_CODE.ConnectionClosed) {
        throw new ToolError(
          `MCP server "${this.id}" exited while it ran ${name}`,
          this.#restarted
            ? "It is not started again; carry on without its tools"
            : "It is started again on the next call: try once more",
        );
      }
      throw asToolError(error);
    }
  }

  /** What `/mcp` shows of it. */
  view(): McpServerView {
    const target = this.launch.target;
    return {
      id: this.id,
      transport: target.transport,
      target: this.launch.display,
      status: this.status,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.#state.status === "lost" ? { restartsOnUse: true } : {}),
      ...(this.#ctx.logFile ? { logFile: this.#ctx.logFile } : {}),
      tools: this.#tools.map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema,
      })),
    };
  }

  /** Stops it (its process, for stdio) and waits until it has. */
  async close(): Promise<void> {
    this.#closing.abort(new DOMException("the session has ended", "AbortError"));
    await this.started;
    if (this.#state.status === "ready") await this.#state.conn.close();
    this.#state = { status: "failed", reason: "the session has ended" };
  }

  /** The connection to call through: the server again if it exited once, else an error. */
  async #connection(): Promise<Connection> {
    this.#restartIfLost();
    await this.started;
    if (this.#state.status === "ready") return this.#state.conn;
    throw new ToolError(
      `MCP server "${this.id}" is not available: ${this.reason}`,
      `Carry on without its tools, or tell the user it needs fixing${this.#logNote()}`,
    );
  }

  /** Starts a server that exited on its own again (once in its life: see `#lost`). */
  #restartIfLost(): void {
    if (this.#state.status !== "lost" || this.#closing.signal.aborted) return;
    this.#restarted = true;
    this.#state = { status: "starting", started: this.#start() };
  }

  async #start(): Promise<void> {
    const again = this.#restarted;
    let conn: Connection | undefined;
    try {
      // The SDK loads with the first server a session starts, not with every session.
      const { connect } = await import("./connection.ts");
      conn = await connect(this.launch, {
        home: this.#ctx.home,
        logFile: this.#ctx.logFile,
        onLost: () => this.#lost(conn),
        onToolsChanged: (tools) => this.#list(tools),
        signal: this.#closing.signal,
      });
      this.#list(conn.tools);
      this.#state = { status: "ready", conn };
    } catch (error) {
      const closing = this.#closing.signal.aborted;
      const reason = closing
        ? "the session has ended"
        : error instanceof StartError
        ? error.message
        : `It failed to start: ${error instanceof Error ? error.message : error}`;
      const status = error instanceof StartError && error.needsLogin ? "needs_login" : "failed";
      this.#state = { status, reason };
      // A required server that does not start fails the session's start with this reason.
      if (closing || (this.launch.required && !again)) return;
      const what = again ? "could not be started again" : "did not start";
      this.#ctx.warn(`MCP server "${this.id}" ${what}: ${reason}${this.#logNote()}`);
    }
  }

  #lost(conn: Connection | undefined): void {
    if (this.#state.status !== "ready" || this.#state.conn !== conn) return;
    if (this.#restarted || this.launch.target.transport !== "stdio") {
      this.#state = { status: "failed", reason: "it exited again, so it is not started again" };
      this.#ctx.warn(`MCP server "${this.id}" exited again; its tools are off${this.#logNote()}`);
      return;
    }
    this.#state = { status: "lost", reason: "it exited; it is started again on its next call" };
    this.#ctx.warn(
      `MCP server "${this.id}" exited; it is started again on its next call${this.#logNote()}`,
    );
  }

  #list(tools: McpTool[]): void {
    this.#tools = tools.filter((t) => this.launch.offers(t.name)).map(toolShape);
  }

  #logNote(): string {
    return this.#ctx.logFile ? `; log: ${this.#ctx.logFile}` : ` (${this.launch.display})`;
  }
}

function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError(error instanceof Error ? error.message : String(error));
}

/** `promise`, or an AbortError once `signal` fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
