import assert from "node:assert/strict";
import type { Session } from "../../session/types.ts";
import { type McpHub, type McpServerView, NO_MCP_SERVERS } from "../../tools/mcp_hub.ts";
import { makeStyle } from "../term/style.ts";
import { type CommandContext, runCommand } from "./commands.ts";
import { argumentLines } from "./mcp_command.ts";
import { untrustedView } from "../../mcp/untrusted_servers.ts";

const SEARCH_SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to look for\nin the docs" },
    limit: { type: "integer" },
    mode: { enum: ["fast", "full"], description: "How hard to look" },
  },
  required: ["query"],
};

const SERVERS: McpServerView[] = [
  {
    id: "docs",
    transport: "stdio",
    target: "npx -y docs-server",
    status: "ready",
    logFile: "/home/u/.openinterpreter/logs/mcp-docs.log",
    tools: [
      {
        name: "search",
        description: "Searches the docs.\nSecond line.",
        inputSchema: SEARCH_SCHEMA,
      },
      { name: "toc", description: "The table of \x1b[2Jcontents", inputSchema: { type: "object" } },
    ],
  },
  {
    id: "web",
    transport: "streamable_http",
    target: "https://mcp.example.com/mcp",
    status: "needs_login",
    reason: "The server asks for an OAuth sign-in",
    tools: [],
  },
  {
    id: "broken",
    transport: "stdio",
    target: "broken-server",
    status: "failed",
    reason: 'Cannot start "broken-server": not found; see the log',
    tools: [],
  },
  { id: "slow", transport: "stdio", target: "slow", status: "starting", tools: [] },
];

/** Runs `/mcp …` on a session whose hub reports `servers`; returns what was printed. */
async function mcp(
  line: string,
  opts: { servers?: McpServerView[]; textProtocol?: boolean; configured?: string[] } = {},
): Promise<string[]> {
  const hub: McpHub = { ...NO_MCP_SERVERS, servers: () => opts.servers ?? SERVERS };
  const session = {
    mcp: hub,
    config: { mcp_servers: Object.fromEntries((opts.configured ?? []).map((id) => [id, {}])) },
    status: () => ({ harness: "swe-agent", textProtocol: opts.textProtocol }),
  } as unknown as Session;
  const printed: string[] = [];
  const ctx = {
    session: () => session,
    print: (lines: string[]) => printed.push(...lines),
    style: makeStyle(false),
  } as unknown as CommandContext;
  await runCommand(line, ctx);
  return printed;
}

Deno.test("/mcp lists each server's state and transport, and ready servers' tools", async () => {
  assert.deepEqual(await mcp("/mcp"), [
    "docs    ready, 2 tools · stdio",
    "    search  Searches the docs.",
    "    toc     The table of \\u{1b}[2Jcontents",
    "web     needs login · streamable HTTP",
    "    The server asks for an OAuth sign-in",
    "    Sign in with: interpreter mcp login web",
    "broken  failed · stdio",
    '    Cannot start "broken-server": not found; see the log',
    "slow    starting · stdio",
    "/mcp ID shows one server in full: its command or URL, log and arguments",
  ]);
});

Deno.test("/mcp names the configured servers that are disabled", async () => {
  const out = await mcp("/mcp", { configured: ["docs", "web", "broken", "slow", "off"] });
  assert.equal(out.at(-2), "off: enabled = false in config.toml");
});

Deno.test("/mcp ID shows the target, log and every tool with its description and arguments", async () => {
  assert.deepEqual(await mcp("/mcp docs"), [
    "docs  ready, 2 tools · stdio",
    "  command: npx -y docs-server",
    "  log: /home/u/.openinterpreter/logs/mcp-docs.log",
    "  tools:",
    "    search",
    "      Searches the docs.",
    "      Second line.",
    "      arguments:",
    "        query (string, required): What to look for",
    "        limit (integer)",
    '        mode (one of "fast", "full"): How hard to look',
    "    toc",
    "      The table of \\u{1b}[2Jcontents",
    "      no arguments",
  ]);
  assert.deepEqual((await mcp("/mcp web")).slice(0, 4), [
    "web  needs login · streamable HTTP",
    "  The server asks for an OAuth sign-in",
    "  Sign in with: interpreter mcp login web",
    "  url: https://mcp.example.com/mcp",
  ]);
  assert.deepEqual(await mcp("/mcp doc"), [
    'No MCP server "doc" in this session; did you mean /mcp docs? (/mcp lists them)',
  ]);
});

Deno.test("/mcp says that a text-protocol harness gets no MCP tools", async () => {
  const [note, first] = await mcp("/mcp", { textProtocol: true });
  assert.equal(
    note,
    "The swe-agent harness talks to the model in a text protocol, so it gets no MCP tools; " +
      "/harness ID switches to one with tool calls",
  );
  assert.equal(first, "docs    ready, 2 tools · stdio");
  assert.equal((await mcp("/mcp docs", { textProtocol: true }))[0], note);
});

Deno.test("/mcp without servers says how to add one, or that they are all disabled", async () => {
  assert.deepEqual(await mcp("/mcp", { servers: [] }), [
    "No MCP servers are configured. Add one in a shell with",
    "  interpreter mcp add NAME -- COMMAND [ARGS...]   (a server started as a command, stdio)",
    "  interpreter mcp add NAME --url URL             (a streamable HTTP server)",
    "then /new starts a session with it",
  ]);
  assert.deepEqual(await mcp("/mcp", { servers: [], configured: ["docs", "web"] }), [
    "No MCP server is enabled: docs, web have enabled = false in config.toml",
  ]);
});

Deno.test("argumentLines() names the types of arrays, unions, constants and untyped values", () => {
  const schema = {
    properties: {
      paths: { type: "array", items: { type: "string" } },
      id: { anyOf: [{ type: "string" }, { type: "number" }] },
      kind: { const: "page" },
      extra: {},
      nullable: { type: ["string", "null"] },
    },
  };
  assert.deepEqual(argumentLines(schema), [
    "paths (array of string)",
    "id (string or number)",
    'kind (= "page")',
    "extra (any)",
    "nullable (string or null)",
  ]);
  assert.deepEqual(argumentLines({ type: "object" }), []);
});

Deno.test("/mcp lists a project's untrusted server as not started, with how to trust it", async () => {
  const untrusted = untrustedView("proj", { command: "node", args: ["srv.js"] });
  const out = await mcp("/mcp", { servers: [untrusted] });
  assert.deepEqual(out, [
    "proj  untrusted, not started · stdio",
    "    The project's definition of it is not trusted yet. Review it (/mcp proj) and trust it " +
    "in a shell with: interpreter trust; then /new starts it",
    "/mcp ID shows one server in full: its command or URL, log and arguments",
  ]);
  assert.equal((await mcp("/mcp proj", { servers: [untrusted] }))[2], "  command: node srv.js");
});
