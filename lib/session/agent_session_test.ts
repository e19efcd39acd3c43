import assert from "node:assert/strict";
import { defaultValues } from "../config/schema.ts";
import { loadHarness } from "../harness/load.ts";
import { BUILTIN_HARNESSES, sessionHarness } from "./agent_session.ts";

Deno.test("sessionHarness() offers the MCP resource tools only when an enabled server is configured", async () => {
  const native = await loadHarness("native", { builtinDir: BUILTIN_HARNESSES });
  const offered = (mcp_servers: Record<string, { command: string; enabled?: boolean }>) =>
    sessionHarness(native, { ...defaultValues(), mcp_servers }).tools
      .some((t) => t.declaration.name === "list_mcp_resources");
  assert.equal(offered({}), false);
  assert.equal(offered({ docs: { command: "docs-server", enabled: false } }), false);
  assert.equal(offered({ docs: { command: "docs-server" } }), true);
});
