import assert from "node:assert/strict";
import { McpServers } from "./mcp_servers.ts";

Deno.test("McpServers names the source of a server of another agent's file in its view", async () => {
  await using servers = new McpServers(
    { notes: { command: "notes-mcp" }, ours: { url: "https://h/mcp" } },
    {
      home: "/nowhere",
      env: {},
      cwd: "/repo",
      warn: () => {},
      untrusted: new Set(["notes", "ours"]),
      sources: new Map([["notes", "/repo/.mcp.json (Claude Code)"]]),
    },
  );
  const views = servers.servers();
  assert.deepEqual(views.map((v) => [v.id, v.status, v.source]), [
    ["notes", "untrusted", "/repo/.mcp.json (Claude Code)"],
    ["ours", "untrusted", undefined],
  ]);
  assert.equal(servers.sources.length, 0, "nothing untrusted starts");
});
