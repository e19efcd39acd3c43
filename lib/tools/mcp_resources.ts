/**
 * The harnesses' MCP resource tools: `mcp.list_resources` lists what the session's MCP servers
 * offer to read, `mcp.read_resource` reads one. Both reach the servers through `ctx.mcp` (no hub
 * means no servers). Each returns the resources in the shapes the vendors' tools answer with
 * (Claude Code's JSON array, Codex's JSON object, the plain text), for the harness to pick.
 */
import { join } from "node:path";
import * as z from "zod";
import { defineCapability, type ToolContext } from "./capability.ts";
import { CodedToolError } from "./_coded_error.ts";
import { scratchOf } from "./_fs.ts";
import {
  type McpHub,
  type McpResource,
  type McpResourceContent,
  NO_MCP_SERVERS,
} from "./mcp_hub.ts";
import { capResourceParts, DEFAULT_MCP_OUTPUT_CAPS, formatFileSize } from "./mcp_output_caps.ts";
import { resourceKey, resourcesOf } from "./resources.ts";

export { formatFileSize };

/** A resource as the list tools show it: what its server lists, then the server's id. */
export interface ListedResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  server: string;
}

/** Input of `mcp.list_resources`. */
const mcpListResourcesInput = z.object({
  server: z.string().optional().describe(
    "Id of the MCP server to list; every ready server's resources when absent or empty",
  ),
});

/** Result of `mcp.list_resources`. */
export interface McpListResourcesOutput {
  /** The server asked for; absent when every server was listed. */
  server?: string;
  /** The resources, each its server's fields then `server` (`{resources}` is Claude Code's JSON). */
  resources: ListedResource[];
  count: number;
  /** `{"server"?, "resources": [{"server", "uri", ...}]}`: Codex's `list_mcp_resources` answer. */
  json: string;
}

/** Lists the resources of one MCP server of the session, or of all of them. */
export const mcpListResources = defineCapability({
  id: "mcp.list_resources",
  input: mcpListResourcesInput,
  mutates: false,
  async run(input, ctx): Promise<McpListResourcesOutput> {
    const hub = hubOf(ctx);
    const server = input.server?.trim() || undefined;
    if (server !== undefined) requireReady(hub, server);
    const found = await askServer(
      () => hub.listResources(server, ctx.signal),
      { server: server ?? "", uri: "", method: "resources/list" },
      ctx.signal,
    );
    return listResourcesOutput(server, found.map(listed));
  },
});

/** The output of `mcp.list_resources` for `resources` of `server` (undefined: every server). */
export function listResourcesOutput(
  server: string | undefined,
  resources: ListedResource[],
): McpListResourcesOutput {
  const codex = resources.map(({ server, ...rest }) => ({ server, ...rest }));
  return {
    ...(server !== undefined ? { server } : {}),
    resources,
    count: resources.length,
    json: JSON.stringify({ ...(server !== undefined ? { server } : {}), resources: codex }),
  };
}

/** Input of `mcp.read_resource`. */
const mcpReadResourceInput = z.object({
  server: z.string().trim().min(1).describe("Id of the MCP server that lists the resource"),
  uri: z.string().trim().min(1).describe("The resource's URI, as the server lists it"),
  save_blobs: z.boolean().optional().describe(
    "Save binary parts to files and give their paths instead of base64 (Claude Code's way)",
  ),
});

/** One part of a read resource as the tools show it. */
export interface ReadPart {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64 bytes, when blobs are not saved. */
  blob?: string;
  /** Where a binary part was saved, with `save_blobs`; `text` then says so. */
  blobSavedTo?: string;
}

/** Result of `mcp.read_resource`. */
export interface McpReadResourceOutput {
  server: string;
  uri: string;
  /** The parts (`{contents}` as JSON: Claude Code's `{"contents": …}` holds this). */
  contents: ReadPart[];
  /** The text of every part (a saved blob's note), one after another; empty when none. */
  text: string;
  /** `{"server", "uri", "contents"}`: Codex's `read_mcp_resource` answer. */
  json: string;
}

/** Reads one resource of an MCP server of the session. */
export const mcpReadResource = defineCapability({
  id: "mcp.read_resource",
  input: mcpReadResourceInput,
  mutates: false,
  async run(input, ctx): Promise<McpReadResourceOutput> {
    const hub = hubOf(ctx);
    const { server, uri } = input;
    requireReady(hub, server);
    const read = await askServer(
      () => hub.readResource(server, uri, ctx.signal),
      { server, uri, method: "resources/read" },
      ctx.signal,
    );
    const parts = input.save_blobs
      ? await Promise.all(read.map((part, i) => savedPart(part, { server, index: i, ctx })))
      : read.map(plainPart);
    const caps = hub.outputCaps?.(server) ?? DEFAULT_MCP_OUTPUT_CAPS;
    const contents = capResourceParts(parts, caps.textBytes);
    return {
      server,
      uri,
      contents,
      text: contents.flatMap((p) => p.text === undefined ? [] : [p.text]).join("\n"),
      json: JSON.stringify({ server, uri, contents }),
    };
  },
});

function hubOf(ctx: ToolContext): McpHub {
  return ctx.mcp ?? NO_MCP_SERVERS;
}

/**
 * Throws the coded errors for a server the session does not have (`unknown_server`, in Claude
 * Code's words) or one that failed or needs a login (`server_not_ready`). A server still
 * starting is asked all the same: the hub answers once it is up (or says why not); so is one
 * that exited, which the hub starts again.
 */
function requireReady(hub: McpHub, server: string): void {
  const servers = hub.servers();
  const view = servers.find((s) => s.id === server);
  if (!view) {
    const available = servers.map((s) => s.id).join(", ");
    throw new CodedToolError("unknown_server", { server, available }, () => ({
      message: `Server "${server}" not found. Available servers: ${available || "(none)"}`,
      hint: available
        ? "Use one of the available server names exactly as listed"
        : "This session has no MCP servers; go on without them",
    }));
  }
  if (view.status === "ready" || view.status === "starting" || view.restartsOnUse) return;
  const reason = view.reason ?? "";
  const fields = { server, status: view.status, reason };
  throw new CodedToolError("server_not_ready", fields, () => ({
    message: `Server "${server}" is not connected: ${notReadyText(view.status, reason)}`,
    hint: "Its resources are not available in this session; go on without them",
  }));
}

function notReadyText(status: string, reason: string): string {
  const why = reason ? ` (${reason})` : "";
  return status === "needs_login" ? `it needs a login${why}` : `it failed${why}`;
}

/** Runs a request to a server; its failure becomes the coded error `request_failed`. */
async function askServer<T>(
  request: () => Promise<T>,
  about: { server: string; uri: string; method: string },
  signal: AbortSignal,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new CodedToolError("request_failed", { ...about, message }, () => ({
      message: `${about.method} failed: ${message}`,
      hint: about.uri
        ? "Read only URIs the server lists, exactly as listed"
        : "The server could not list its resources; go on without them",
    }));
  }
}

function listed(r: McpResource): ListedResource {
  return {
    uri: r.uri,
    name: r.name,
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
    server: r.server,
  };
}

function plainPart(c: McpResourceContent): ReadPart {
  return {
    uri: c.uri,
    ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}),
    ...(c.text !== undefined ? { text: c.text } : {}),
    ...(c.text === undefined && c.blob !== undefined ? { blob: c.blob } : {}),
  };
}

/** Key of the scratch folder that saved resource blobs go to (made on first use). */
const BLOB_DIR = resourceKey<Promise<string>>("mcp.resource_blobs");

/**
 * A binary part saved to a file the model can read, with Claude Code's note in `text` (or why it
 * could not be saved); text parts as they are.
 */
async function savedPart(
  c: McpResourceContent,
  at: { server: string; index: number; ctx: ToolContext },
): Promise<ReadPart> {
  if (c.text !== undefined || c.blob === undefined) return plainPart(c);
  const mime = c.mimeType !== undefined ? { mimeType: c.mimeType } : {};
  const prefix = `[Resource from ${at.server} at ${c.uri}] `;
  try {
    const bytes = Uint8Array.from(atob(c.blob), (ch) => ch.charCodeAt(0));
    const path = join(await blobDir(at.ctx), blobFileName(at.index, c.mimeType));
    await scratchOf(at.ctx).writeFile(path, bytes);
    const size = formatFileSize(bytes.length);
    const text = `${prefix}Binary content (${
      c.mimeType || "unknown type"
    }, ${size}) saved to ${path}`;
    return { uri: c.uri, ...mime, blobSavedTo: path, text };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { uri: c.uri, ...mime, text: `Binary content could not be saved to disk: ${why}` };
  }
}

function blobDir(ctx: ToolContext): Promise<string> {
  const resources = resourcesOf(ctx);
  let dir = resources.get(BLOB_DIR);
  if (!dir) {
    dir = scratchOf(ctx).makeDir("mcp-resources-", { visibleToCommands: true });
    resources.set(BLOB_DIR, dir);
    dir.catch(() => resources.delete(BLOB_DIR));
  }
  return dir;
}

/** `mcp-resource-<time>-<index>-<random>.<extension>`, as Claude Code names them. */
function blobFileName(index: number, mimeType: string | undefined): string {
  const random = crypto.randomUUID().replaceAll("-", "").slice(0, 6);
  return `mcp-resource-${Date.now()}-${index}-${random}.${extensionOf(mimeType)}`;
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/svg+xml": "svg",
  "text/plain": "txt",
  "text/markdown": "md",
  "application/octet-stream": "bin",
};

function extensionOf(mimeType: string | undefined): string {
  const mime = (mimeType ?? "").split(";")[0].trim().toLowerCase();
  if (EXTENSIONS[mime]) return EXTENSIONS[mime];
  const sub = /^[a-z]+\/([a-z0-9]+)$/.exec(mime)?.[1];
  return sub && sub.length <= 8 ? sub : "bin";
}
