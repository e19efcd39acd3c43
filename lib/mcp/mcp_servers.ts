/**
 * A session's MCP servers: every enabled `[mcp_servers.ID]` started at once and in parallel,
 * each a tool source, together the session's `McpHub` (states for `/mcp`, resources, prompts).
 * Closing it stops every server and waits until each has.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerEntry } from "../config/schema.ts";
import { UserError } from "../errors.ts";
import type {
  McpHub,
  McpPrompt,
  McpResource,
  McpResourceContent,
  McpServerView,
} from "../tools/mcp_hub.ts";
import { DEFAULT_MCP_OUTPUT_CAPS, type McpOutputCaps } from "../tools/mcp_output_caps.ts";
import type { ToolSource } from "../tools/tool_source.ts";
import { type LaunchContext, launchOf, mcpLogFile } from "./launch.ts";
import { ManagedServer } from "./managed_server.ts";
import { UNTRUSTED_REASON, untrustedView } from "./untrusted_servers.ts";

/** What starting the servers needs from the session. */
export interface McpStartOptions extends LaunchContext {
  /** The interpreter home: log files and stored logins live there. */
  home: string;
  /** Shows one line to the user (a session `warning` event). */
  warn(message: string): void;
  /** Servers not started: a project's whose definitions the user has not trusted. */
  untrusted?: ReadonlySet<string>;
  /** Where each server of another agent's file comes from, by id (lib/setups/mcp). */
  sources?: ReadonlyMap<string, string>;
}

/** The servers of one session (see the module comment). */
export class McpServers implements McpHub, AsyncDisposable {
  readonly #servers: ManagedServer[];
  readonly #untrusted: McpServerView[];
  readonly #sources: ReadonlyMap<string, string>;

  /** Starts every enabled and trusted server of `config` without waiting for any of them. */
  constructor(config: Record<string, McpServerEntry>, opts: McpStartOptions) {
    const enabled = Object.entries(config).filter(([, entry]) => entry.enabled !== false);
    const untrusted = opts.untrusted ?? new Set();
    this.#sources = opts.sources ?? new Map();
    this.#untrusted = enabled.filter(([id]) => untrusted.has(id))
      .map(([id, entry]) => untrustedView(id, entry));
    this.#servers = enabled.filter(([id]) => !untrusted.has(id))
      .map(([id, entry]) => {
        const launch = launchOf(id, entry, opts);
        const logFile = launch.target.transport === "stdio" ? mcpLogFile(opts.home, id) : undefined;
        return new ManagedServer(launch, { home: opts.home, logFile, warn: opts.warn });
      });
  }

  /** One tool source per server, in config order. */
  get sources(): readonly ToolSource[] {
    return this.#servers;
  }

  /**
   * Waits for the servers marked `required` and fails when one of them did not start: a
   * UserError (exit 1) with its reason and where its log is.
   */
  async requireStarted(): Promise<void> {
    const required = this.#servers.filter((s) => s.launch.required);
    await Promise.all(required.map((s) => s.started));
    const failed = required.find((s) => s.status !== "ready");
    if (!failed) return;
    const log = failed.view().logFile;
    throw new UserError(
      `MCP server "${failed.id}" is required but did not start: ${failed.reason}`,
      {
        hint: (log ? `See its log: ${log}; then fix` : "Fix") +
          ` [mcp_servers.${failed.id}], or set required = false there to start without it`,
      },
    );
  }

  servers(): McpServerView[] {
    const views = [...this.#servers.map((s) => s.view()), ...this.#untrusted];
    return views.map((view) => {
      const source = this.#sources.get(view.id);
      return source === undefined ? view : { ...view, source };
    });
  }

  async listResources(server: string | undefined, signal: AbortSignal): Promise<McpResource[]> {
    const chosen = server === undefined ? this.#ready() : [this.#find(server)];
    const lists = await Promise.all(chosen.map(async (s) => {
      const client = await s.client();
      if (!client.getServerCapabilities()?.resources) return [];
      const out: McpResource[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined, { signal });
        out.push(...page.resources.map((r) => ({
          server: s.id,
          uri: r.uri,
          name: r.name,
          ...(r.description ? { description: r.description } : {}),
          ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        })));
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    }));
    return lists.flat();
  }

  async readResource(
    server: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<McpResourceContent[]> {
    const client = await this.#find(server).client();
    const result = await client.readResource({ uri }, { signal });
    return result.contents.map((c) => ({
      uri: c.uri,
      ...(c.mimeType ? { mimeType: c.mimeType } : {}),
      ...("text" in c ? { text: c.text } : { blob: c.blob }),
    }));
  }

  outputCaps(server: string): McpOutputCaps {
    return this.#servers.find((s) => s.id === server)?.launch.outputCaps ??
      DEFAULT_MCP_OUTPUT_CAPS;
  }

  async listPrompts(signal: AbortSignal): Promise<McpPrompt[]> {
    const lists = await Promise.all(
      this.#ready().map(async (s) => {
        const client = await s.client();
        if (!client.getServerCapabilities()?.prompts) return [];
        return await allPrompts(client, s.id, signal);
      }),
    );
    return lists.flat();
  }

  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const client = await this.#find(server).client();
    const result = await client.getPrompt({ name, arguments: args }, { signal });
    return result.messages.map((m) => contentText(m.content)).filter(Boolean).join("\n\n");
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#servers.map((s) => s.close()));
  }

  #ready(): ManagedServer[] {
    return this.#servers.filter((s) => s.status === "ready");
  }

  #find(id: string): ManagedServer {
    const server = this.#servers.find((s) => s.id === id);
    if (server) return server;
    if (this.#untrusted.some((s) => s.id === id)) {
      throw new Error(`MCP server "${id}" is not connected: ${UNTRUSTED_REASON}`);
    }
    const known = this.#servers.map((s) => `"${s.id}"`).join(", ") || "none";
    throw new Error(`No MCP server "${id}" is configured and enabled (servers: ${known})`);
  }
}

async function allPrompts(client: Client, server: string, signal: AbortSignal) {
  const out: McpPrompt[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : undefined, { signal });
    out.push(...page.prompts.map((p) => ({
      server,
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        ...(a.description ? { description: a.description } : {}),
        ...(a.required !== undefined ? { required: a.required } : {}),
      })),
    })));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** A prompt message's content as text; what has no text form is named instead. */
function contentText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    case "resource_link":
      return `Resource: ${block.name} (${block.uri})`;
    default:
      return `[${block.type} (${block.mimeType}) left out]`;
  }
}
