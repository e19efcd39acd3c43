import assert from "node:assert/strict";
import { VERSION } from "../../version.ts";
import { serverInfo } from "./mcp_server.ts";

Deno.test("serverInfo() names the server as Codex's MCP server does, with our version", () => {
  const info = serverInfo();
  assert.deepEqual({ ...info, user_agent: undefined }, {
    name: "codex-mcp-server",
    title: "Codex",
    version: VERSION,
    user_agent: undefined,
  });
  assert.match(info.user_agent, new RegExp(`^interpreter/${VERSION.replaceAll(".", "\\.")} \\(`));
});
