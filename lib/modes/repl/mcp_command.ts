/**
 * `/mcp`: the session's MCP servers, each with its state (starting, ready with N tools, failed
 * with the reason, needs login with the command, a project's untrusted one with how to trust
 * it), transport and tools; `/mcp ID` shows one in full: its command or URL, log file, and every
 * tool with its description and arguments; a server of another agent's file (`.mcp.json`, ...)
 * names that file. What the servers report is shown with control
 * characters made visible.
 */
import { terminalSafe, terminalText } from "../../approval/visible.ts";
import type { Session } from "../../session/open.ts";
import type { McpServerView, McpToolView } from "../../tools/mcp_hub.ts";
import { nearestNames } from "../../nearest.ts";
import type { Style } from "../term/style.ts";

/** What `/mcp` uses of the REPL's command context. */
export interface McpContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
}

/** `/mcp`, as the command list takes it. */
export const MCP_COMMAND = {
  name: "mcp",
  summary: "MCP servers: state, transport and tools; /mcp ID shows one in full",
  run: mcp,
};

/** What `/mcp` shows besides the servers. */
export interface McpListOptions {
  style: Style;
  /** The harness in use, named when it takes no MCP tools. */
  harness: string;
  /** The harness talks a text protocol, so it is offered no MCP tools. */
  textProtocol: boolean;
  /** The ids of `[mcp_servers]` in the config, enabled or not. */
  configured: string[];
}

function mcp(arg: string, ctx: McpContext): void {
  const session = ctx.session();
  const status = session.status();
  const opts: McpListOptions = {
    style: ctx.style,
    harness: terminalText(status.harness),
    textProtocol: status.textProtocol === true,
    configured: Object.keys(session.config.mcp_servers ?? {}),
  };
  const servers = terminalSafe(session.mcp.servers());
  ctx.print(arg ? mcpServerLines(servers, arg, opts) : mcpListLines(servers, opts));
}

/** `/mcp`: every server in a few lines, its tools with one-line descriptions. */
function mcpListLines(servers: McpServerView[], opts: McpListOptions): string[] {
  const { style } = opts;
  const lines = textProtocolNote(opts);
  if (servers.length === 0) return [...lines, ...noServerLines(opts)];
  const width = Math.max(...servers.map((s) => s.id.length));
  for (const server of servers) {
    lines.push(`${style.bold(server.id.padEnd(width))}  ${stateText(server, style)}`);
    if (server.source) lines.push(style.dim(`    from ${server.source}`));
    lines.push(...stateDetail(server, "    ", style));
    const toolWidth = Math.max(0, ...server.tools.map((t) => t.name.length));
    for (const tool of server.tools) {
      lines.push(`    ${tool.name.padEnd(toolWidth)}  ${style.dim(firstLine(tool.description))}`);
    }
  }
  const shown = new Set(servers.map((s) => s.id));
  const disabled = opts.configured.filter((id) => !shown.has(id)).map(terminalText);
  if (disabled.length) lines.push(`${disabled.join(", ")}: enabled = false in config.toml`);
  lines.push(style.dim("/mcp ID shows one server in full: its command or URL, log and arguments"));
  return lines;
}

/** `/mcp ID`: one server in full, or what to type instead when there is no such server. */
function mcpServerLines(
  servers: McpServerView[],
  id: string,
  opts: McpListOptions,
): string[] {
  const { style } = opts;
  const server = servers.find((s) => s.id === id);
  if (!server) {
    const near = nearestNames(id, servers.map((s) => s.id));
    const guess = near.length ? `; did you mean ${near.map((n) => `/mcp ${n}`).join(" or ")}?` : "";
    return [`No MCP server "${terminalText(id)}" in this session${guess} (/mcp lists them)`];
  }
  const lines = textProtocolNote(opts);
  lines.push(`${style.bold(server.id)}  ${stateText(server, style)}`);
  lines.push(...stateDetail(server, "  ", style));
  lines.push(`  ${server.transport === "stdio" ? "command" : "url"}: ${server.target}`);
  if (server.source) lines.push(`  from: ${server.source}`);
  if (server.logFile) lines.push(`  log: ${server.logFile}`);
  if (server.tools.length === 0) return lines;
  lines.push("  tools:");
  for (const tool of server.tools) lines.push(...toolLines(tool, style));
  return lines;
}

function textProtocolNote(opts: McpListOptions): string[] {
  if (!opts.textProtocol) return [];
  return [
    opts.style.dim(
      `The ${opts.harness} harness talks to the model in a text protocol, so it gets no MCP ` +
        "tools; /harness ID switches to one with tool calls",
    ),
  ];
}

function noServerLines(opts: McpListOptions): string[] {
  if (opts.configured.length > 0) {
    const ids = opts.configured.map(terminalText).join(", ");
    const verb = opts.configured.length === 1 ? "has" : "have";
    return [`No MCP server is enabled: ${ids} ${verb} enabled = false in config.toml`];
  }
  return [
    "No MCP servers are configured. Add one in a shell with",
    "  interpreter mcp add NAME -- COMMAND [ARGS...]   (a server started as a command, stdio)",
    "  interpreter mcp add NAME --url URL             (a streamable HTTP server)",
    opts.style.dim("then /new starts a session with it"),
  ];
}

function stateText(server: McpServerView, style: Style): string {
  const transport = server.transport === "stdio" ? "stdio" : "streamable HTTP";
  switch (server.status) {
    case "starting":
      return `${style.dim("starting")} · ${transport}`;
    case "ready": {
      const count = server.tools.length;
      return `${style.green("ready")}, ${count} tool${count === 1 ? "" : "s"} · ${transport}`;
    }
    case "failed":
      return `${style.red("failed")} · ${transport}`;
    case "needs_login":
      return `${style.red("needs login")} · ${transport}`;
    case "untrusted":
      return `${style.red("untrusted, not started")} · ${transport}`;
  }
}

/** The reason a server failed or needs a login, and the command that signs in. */
function stateDetail(server: McpServerView, indent: string, style: Style): string[] {
  const lines: string[] = [];
  if (server.status === "failed" || server.status === "needs_login") {
    if (server.reason) lines.push(...server.reason.split("\n").map((l) => `${indent}${l}`));
  }
  if (server.status === "needs_login") {
    lines.push(`${indent}Sign in with: ${style.bold(`interpreter mcp login ${server.id}`)}`);
  }
  if (server.status === "untrusted") {
    lines.push(
      `${indent}The project's definition of it is not trusted yet. Review it (/mcp ${server.id}) ` +
        `and trust it in a shell with: ${style.bold("interpreter trust")}; then /new starts it`,
    );
  }
  return lines;
}

function toolLines(tool: McpToolView, style: Style): string[] {
  const lines = [`    ${style.bold(tool.name)}`];
  const description = tool.description.trim();
  if (description) lines.push(...description.split("\n").map((l) => `      ${l}`.trimEnd()));
  const args = argumentLines(tool.inputSchema);
  if (args.length === 0) lines.push(style.dim("      no arguments"));
  else lines.push("      arguments:", ...args.map((a) => `        ${a}`));
  return lines;
}

/** One line per property of a JSON Schema object: name, type, required, description. */
export function argumentLines(schema: Record<string, unknown>): string[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties).map(([name, value]) => {
    const property = isObject(value) ? value : {};
    const need = required.includes(name) ? ", required" : "";
    const about = typeof property.description === "string" && property.description.trim()
      ? `: ${firstLine(property.description)}`
      : "";
    return `${name} (${typeText(property)}${need})${about}`;
  });
}

function typeText(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) {
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if ("const" in schema) return `= ${JSON.stringify(schema.const)}`;
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) {
    return options.map((o) => typeText(isObject(o) ? o : {})).join(" or ");
  }
  const type = schema.type;
  if (type === "array" && isObject(schema.items)) return `array of ${typeText(schema.items)}`;
  if (Array.isArray(type)) return type.join(" or ");
  return typeof type === "string" ? type : "any";
}

/** The first line of `text`, shortened to 100 characters. */
function firstLine(text: string): string {
  const line = text.trim().split("\n")[0].trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
