/**
 * A real stdio server's large answers reach the model capped by its `[mcp_servers.ID]` keys: a
 * 5 MB tool result and a 5 MB resource keep their head and tail with a note of what was left
 * out, the images past `max_image_bytes` are named instead of sent; small answers come whole.
 * A resource read of a server that exited starts it again, as a tool call does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../../lib/errors.ts";
import { McpServers } from "../../lib/mcp/mcp_servers.ts";
import { mcpReadResource } from "../../lib/tools/mcp_resources.ts";
import type { SourceTool } from "../../lib/tools/tool_source.ts";
import type { ToolContext } from "../../lib/tools/types.ts";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { assertNoProcesses, testServer } from "./_servers.ts";

const BIG = 5 * 1024 * 1024 + 8;
const CAP = 64 * 1024;

function context(cwd: string, mcp: McpServers): ToolContext {
  const signal = new AbortController().signal;
  return {
    cwd,
    signal,
    env: {},
    state: new Map(),
    fs: inProcessFs,
    callId: "c",
    progress() {},
    mcp,
  };
}

function assertCapped(text: string): void {
  assert.ok(text.startsWith("HEAD"), text.slice(0, 20));
  assert.ok(text.endsWith("TAIL"), text.slice(-20));
  assert.ok(text.includes(`\n[… ${BIG - CAP} bytes truncated …]\n`), "the note says how much");
  assert.ok(new TextEncoder().encode(text).length <= CAP + 64, `${text.length} chars kept`);
}

Deno.test("MCP results and resource reads are capped by the server's config; a read restarts an exited server", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "oi_mcp_caps_" }));
  const warnings: string[] = [];
  const servers = new McpServers({
    out: testServer("outputs", root, { max_output_bytes: CAP, max_image_bytes: 100_000 }),
  }, {
    home: join(root, "home"),
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: root,
    warn: (m) => warnings.push(m),
  });
  const ctx = context(root, servers);
  const tool = async (name: string): Promise<SourceTool> => {
    const tools = await servers.sources[0].tools(new AbortController().signal);
    return tools.find((tool) => tool.name === name)!;
  };
  const read = (uri: string) => mcpReadResource.run({ server: "out", uri }, ctx);
  try {
    await t.step("a resource read of a server that exited starts it again, once", async () => {
      await assert.rejects((await tool("boom")).run({}, ctx), ToolError);
      assert.equal(servers.servers()[0].status, "failed");
      const small = await read("test://small");
      assert.equal(small.text, "a small resource", "a small read comes whole");
      assert.equal(servers.servers()[0].status, "ready");
      assert.equal((await (await tool("boom")).run({}, ctx)).text, "survived");
    });
    await t.step("a 5 MB tool result keeps its head and tail with a note", async () => {
      assertCapped((await (await tool("big_text")).run({}, ctx)).text);
    });
    await t.step("a 5 MB resource keeps its head and tail with a note", async () => {
      const big = await read("test://big");
      assertCapped(big.text);
      assertCapped(JSON.parse(big.json).contents[0].text);
    });
    await t.step("images past max_image_bytes are named instead of sent", async () => {
      const result = await (await tool("pictures")).run({}, ctx);
      assert.equal(result.images?.length, 1);
      assert.match(
        result.text,
        /^\[image \(image\/png, 78\.1KB\) left out: the images of one result may hold 97\.7KB together\]$/,
      );
    });
  } finally {
    await servers[Symbol.asyncDispose]();
    await assertNoProcesses(root);
    await Deno.remove(root, { recursive: true });
  }
  assert.match(warnings[0], /^MCP server "out" exited; it is started again on its next call/);
});
