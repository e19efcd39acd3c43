/**
 * One MCP server entry of another agent's file mapped onto our `[mcp_servers.ID]` shape, with
 * its variables (`${VAR}`, `$VAR`, `{env:VAR}`, `${env:VAR}`) still in it: that is the
 * definition the user trusts; `expand.ts` fills them in at start. Pure. Formats in
 * `lib/setups/FORMATS.md` ("MCP servers").
 */
import type { McpServerEntry } from "../../config/schema.ts";
import type { SetupVendor } from "../sources.ts";

/** A mapped entry, or why the server is skipped (a sentence naming the fix), and notes. */
export type MappedServer =
  | { entry: McpServerEntry; notes: string[] }
  | { skip: string };

type Raw = Record<string, unknown>;

/**
 * The maps of servers by name in a parsed file of `vendor`, first found first. In
 * `~/.claude.json`, the user's servers for one project (`projects["<folder>"].mcpServers`, for
 * each of `projectFolders`) come before the user's own (`mcpServers`).
 */
export function serversOf(
  vendor: SetupVendor,
  parsed: unknown,
  projectFolders: string[] = [],
): Raw[] {
  if (!isObject(parsed)) return [];
  if (vendor === "opencode") return [objectOr(parsed.mcp)];
  const projects = vendor === "claude" && isObject(parsed.projects) ? parsed.projects : {};
  return [
    ...projectFolders.map((folder) => objectOr(objectOr(projects[folder]).mcpServers)),
    objectOr(parsed.mcpServers),
  ];
}

/** Server `raw` of a `vendor` file mapped onto our entry shape. */
export function mapServer(vendor: SetupVendor, raw: unknown): MappedServer {
  if (!isObject(raw)) return { skip: "its definition is not an object: fix the file" };
  switch (vendor) {
    case "claude":
      return mapClaude(raw);
    case "gemini":
    case "qwen":
      return mapGemini(raw, vendor);
    case "opencode":
      return mapOpencode(raw);
    default:
      return mapCursor(raw);
  }
}

const SSE_FIX = "it speaks the older SSE transport, which interpreter does not support: point " +
  "it at the server's streamable HTTP endpoint instead, or run the server over stdio";

/** Claude Code's `.mcp.json` / `~/.claude.json`: `type` stdio (default), http or sse. */
function mapClaude(raw: Raw): MappedServer {
  const type = raw.type ?? "stdio";
  if (type === "sse") return { skip: `"type": "sse": ${SSE_FIX} ("type": "http")` };
  if (type === "http") {
    if (typeof raw.url !== "string") return { skip: '"type": "http" needs a "url"' };
    return finish(remote(raw.url, raw.headers), raw, toolTimeout(raw.timeout));
  }
  if (type !== "stdio") {
    return { skip: `"type": ${JSON.stringify(type)} is not supported: use "stdio" or "http"` };
  }
  if (raw.type === undefined && raw.url !== undefined) {
    return { skip: 'it has a "url" but no "type": add "type": "http"' };
  }
  return finish(local(raw.command, raw.args, raw.env), raw, toolTimeout(raw.timeout));
}

/** Gemini CLI's and Qwen Code's `mcpServers`: `httpUrl` > `url` > `command`. */
function mapGemini(raw: Raw, vendor: "gemini" | "qwen"): MappedServer {
  const extra: McpServerEntry = {
    ...toolTimeout(raw.timeout),
    ...startupTimeout(raw.discoveryTimeoutMs),
    ...list("enabled_tools", raw.includeTools),
    ...list("disabled_tools", raw.excludeTools),
  };
  const notes = raw.trust === true
    ? ['"trust": true is ignored: its tools are approved under your approval policy']
    : [];
  let base: McpServerEntry | string;
  if (typeof raw.httpUrl === "string") base = remote(raw.httpUrl, raw.headers);
  else if (typeof raw.url === "string") {
    // Gemini CLI finds out the transport when there is no type; Qwen Code takes url as SSE.
    const sse = raw.type === "sse" || (raw.type === undefined && vendor === "qwen");
    if (sse) return { skip: `its "url" is an SSE endpoint: ${SSE_FIX} ("httpUrl")` };
    base = remote(raw.url, raw.headers);
  } else if (raw.tcp !== undefined && raw.command === undefined) {
    return { skip: '"tcp" (WebSocket) servers are not supported: run the server over stdio' };
  } else {
    base = local(raw.command, raw.args, raw.env);
    if (typeof base !== "string" && typeof raw.cwd === "string") base.cwd = raw.cwd;
  }
  const mapped = finish(base, raw, extra);
  return "entry" in mapped ? { ...mapped, notes: [...notes, ...mapped.notes] } : mapped;
}

/** opencode's `mcp.<name>`: `local` (command list, environment) or `remote` (url, headers). */
function mapOpencode(raw: Raw): MappedServer {
  const extra: McpServerEntry = {
    ...startupTimeout(raw.timeout),
    ...(raw.enabled === false ? { enabled: false } : {}),
  };
  if (raw.type === "remote") {
    if (typeof raw.url !== "string") return { skip: '"type": "remote" needs a "url"' };
    return finish(remote(raw.url, raw.headers), raw, extra);
  }
  if (raw.type !== "local") {
    return { skip: `"type" must be "local" or "remote", not ${JSON.stringify(raw.type)}` };
  }
  if (!Array.isArray(raw.command) || raw.command.length === 0) {
    return { skip: '"command" must be a non-empty list: ["program", "arg", ...]' };
  }
  const [command, ...args] = raw.command;
  const base = local(command, args, raw.environment);
  if (typeof base !== "string" && typeof raw.cwd === "string") base.cwd = raw.cwd;
  return finish(base, raw, extra);
}

/** Cursor's `.cursor/mcp.json`: command, args, env, or url and headers. */
function mapCursor(raw: Raw): MappedServer {
  if (raw.type === "sse") return { skip: `"type": "sse": ${SSE_FIX}` };
  if (typeof raw.url === "string") return finish(remote(raw.url, raw.headers), raw, {});
  return finish(local(raw.command, raw.args, raw.env), raw, {});
}

/** A stdio entry, or what is wrong with it. */
function local(command: unknown, args: unknown, env: unknown): McpServerEntry | string {
  if (typeof command !== "string" || command === "") {
    return 'it has no "command" (nor a "url")';
  }
  if (args !== undefined && !isStringList(args)) return '"args" must be a list of strings';
  if (env !== undefined && !isStringMap(env)) return '"env" must map names to strings';
  return {
    command,
    ...(args && (args as string[]).length ? { args: args as string[] } : {}),
    ...(env && Object.keys(env).length ? { env: env as Record<string, string> } : {}),
  };
}

/** A streamable-HTTP entry, or what is wrong with it. */
function remote(url: string, headers: unknown): McpServerEntry | string {
  if (headers !== undefined && !isStringMap(headers)) return '"headers" must map names to strings';
  return {
    url,
    ...(headers && Object.keys(headers).length
      ? { http_headers: headers as Record<string, string> }
      : {}),
  };
}

function finish(base: McpServerEntry | string, raw: Raw, extra: McpServerEntry): MappedServer {
  if (typeof base === "string") return { skip: `${base}: fix the file` };
  const notes = raw.headersHelper !== undefined
    ? ['"headersHelper" is not run: set the headers with ${VAR} values instead']
    : [];
  return { entry: { ...base, ...extra }, notes };
}

function toolTimeout(ms: unknown): McpServerEntry {
  return typeof ms === "number" && ms > 0 ? { tool_timeout_sec: ms / 1000 } : {};
}

function startupTimeout(ms: unknown): McpServerEntry {
  return typeof ms === "number" && ms > 0 ? { startup_timeout_ms: Math.ceil(ms) } : {};
}

function list(key: "enabled_tools" | "disabled_tools", value: unknown): McpServerEntry {
  return isStringList(value) ? { [key]: value } : {};
}

function isObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectOr(value: unknown): Raw {
  return isObject(value) ? value : {};
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === "string");
}
