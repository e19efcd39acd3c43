import assert from "node:assert/strict";
import { validateOverride } from "../../config/_override.ts";
import { UsageError } from "../../errors.ts";
import { mcpServerOverrides } from "./mcp_servers.ts";

Deno.test("mcpServerOverrides() makes the client's servers mcp_servers tables config accepts", () => {
  const overrides = mcpServerOverrides([
    { name: "docs", command: "npx", args: ["-y", "docs"], env: [{ name: "LANG", value: "en" }] },
    {
      type: "http",
      name: "My Tracker",
      url: "https://mcp.example.com/mcp",
      headers: [{ name: "X-Team", value: "blue" }],
    },
    { name: "docs", command: "other", args: [], env: [] },
  ]);
  assert.deepEqual(overrides.map((o) => [o.keyPath, o.value]), [
    [["mcp_servers", "docs"], { command: "npx", args: ["-y", "docs"], env: { LANG: "en" } }],
    [
      ["mcp_servers", "My_Tracker"],
      { url: "https://mcp.example.com/mcp", http_headers: { "X-Team": "blue" } },
    ],
    [["mcp_servers", "docs_2"], { command: "other", args: [], env: {} }],
  ]);
  for (const override of overrides) assert.deepEqual(validateOverride(override).warnings, []);
  assert.equal(overrides[0].origin, `the client's MCP server "docs"`);
});

Deno.test("mcpServerOverrides() refuses an SSE server, naming it and the transports it takes", () => {
  assert.throws(
    () => mcpServerOverrides([{ type: "sse", name: "old", url: "http://h/sse", headers: [] }]),
    (e: unknown) =>
      e instanceof UsageError && /"old".*SSE/.test(e.message) && /http/.test(e.hint ?? ""),
  );
});
