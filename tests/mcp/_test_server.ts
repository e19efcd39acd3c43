/**
 * A stdio MCP server built with the official SDK, for the fault tests:
 *
 *   deno run -A tests/mcp/_test_server.ts MODE DIR
 *
 * `crash_once`: its tool `boom` exits the process the first time it is called (it leaves
 * `DIR/crashed` behind), and answers "survived" in a process started after that.
 * `crash_always`: `boom` exits the process on every call.
 * `hang`: reads its stdin and never answers anything, not even `initialize`.
 * `plain`: `boom` answers "survived".
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { join } from "node:path";

const [mode, dir] = Deno.args;

if (mode === "hang") {
  for await (const _ of Deno.stdin.readable) {
    // Read and ignore every request until the client closes stdin.
  }
  Deno.exit(0);
}

const server = new McpServer({ name: "test-server", version: "1.0.0" });
server.registerTool("boom", { description: "Exits the process, or says it survived" }, () => {
  const marker = join(dir, "crashed");
  let crashedBefore = true;
  try {
    Deno.statSync(marker);
  } catch {
    crashedBefore = false;
  }
  if (mode === "crash_always" || (mode === "crash_once" && !crashedBefore)) {
    Deno.writeTextFileSync(marker, "");
    Deno.stderr.writeSync(new TextEncoder().encode("test server: exiting on purpose\n"));
    Deno.exit(3);
  }
  return { content: [{ type: "text", text: "survived" }] };
});
await server.connect(new StdioServerTransport());
