import assert from "node:assert/strict";
import { fakeMcpHub, type FakeMcpServer } from "../lib/tools/_test_mcp_hub.ts";
import { harnessSession } from "./_harness_calls.ts";

// The MCP resource tools as each vendor answers: Claude Code's ListMcpResourcesTool (a JSON
// array, each resource then its server; a sentence for none) and ReadMcpResourceTool
// ({"contents": [...]}, binary parts saved to a file), Codex's list_mcp_resources and
// read_mcp_resource ({"server"?, "resources"} and {"server", "uri", "contents"}), Qwen Code's
// read_mcp_resource (the text between its delimiters).

const SERVERS: FakeMcpServer[] = [
  {
    id: "docs",
    resources: [{
      uri: "docs://guide",
      name: "guide",
      mimeType: "text/markdown",
      contents: [{ uri: "docs://guide", mimeType: "text/markdown", text: "# Guide\nRead me." }],
    }, {
      uri: "docs://logo",
      name: "logo",
      mimeType: "image/png",
      contents: [{ uri: "docs://logo", mimeType: "image/png", blob: btoa("PNG") }],
    }],
  },
  { id: "empty" },
  { id: "broken", status: "failed", reason: "exit 1" },
];

async function session(harness: string) {
  const s = await harnessSession(harness, {});
  s.ws.ctx.mcp = fakeMcpHub(SERVERS);
  return s;
}

const GUIDE = '{"uri":"docs://guide","name":"guide","mimeType":"text/markdown","server":"docs"}';
const LOGO = '{"uri":"docs://logo","name":"logo","mimeType":"image/png","server":"docs"}';

Deno.test("claude-code ListMcpResourcesTool: a JSON array of the resources, or Claude Code's sentence", async () => {
  await using s = await session("claude-code");
  assert.deepEqual(await s.call("ListMcpResourcesTool", {}), {
    text: `[${GUIDE},${LOGO}]`,
    isError: false,
  });
  assert.deepEqual(await s.call("ListMcpResourcesTool", { server: "empty" }), {
    text: "No resources found. MCP servers may still provide tools even if they have no resources.",
    isError: false,
  });
  assert.deepEqual(await s.call("ListMcpResourcesTool", { server: "nope" }), {
    text:
      '<tool_use_error>Server "nope" not found. Available servers: docs, empty, broken</tool_use_error>',
    isError: true,
  });
});

Deno.test("claude-code ReadMcpResourceTool: {contents}, a binary part saved to a file", async () => {
  await using s = await session("claude-code");
  assert.deepEqual(await s.call("ReadMcpResourceTool", { server: "docs", uri: "docs://guide" }), {
    text:
      '{"contents":[{"uri":"docs://guide","mimeType":"text/markdown","text":"# Guide\\nRead me."}]}',
    isError: false,
  });
  const logo = await s.call("ReadMcpResourceTool", { server: "docs", uri: "docs://logo" });
  const [part] = JSON.parse(logo.text).contents;
  assert.equal(await Deno.readTextFile(part.blobSavedTo), "PNG");
  assert.equal(
    part.text,
    `[Resource from docs at docs://logo] Binary content (image/png, 3 bytes) saved to ${part.blobSavedTo}`,
  );
  const broken = await s.call("ReadMcpResourceTool", { server: "broken", uri: "a://b" });
  assert.deepEqual(broken, {
    text: '<tool_use_error>Server "broken" is not connected: it failed (exit 1)</tool_use_error>',
    isError: true,
  });
});

Deno.test("native list_mcp_resources and read_mcp_resource answer with Codex's JSON", async () => {
  await using s = await session("native");
  const codexGuide =
    '{"server":"docs","uri":"docs://guide","name":"guide","mimeType":"text/markdown"}';
  assert.deepEqual(await s.call("list_mcp_resources", { server: "docs", cursor: "c1" }), {
    text: `{"server":"docs","resources":[${codexGuide},` +
      '{"server":"docs","uri":"docs://logo","name":"logo","mimeType":"image/png"}]}',
    isError: false,
  });
  assert.equal(
    (await s.call("list_mcp_resources", {})).text.slice(0, 30),
    '{"resources":[{"server":"docs"',
  );
  assert.deepEqual(await s.call("read_mcp_resource", { server: "docs", uri: "docs://logo" }), {
    text: '{"server":"docs","uri":"docs://logo","contents":' +
      `[{"uri":"docs://logo","mimeType":"image/png","blob":"${btoa("PNG")}"}]}`,
    isError: false,
  });
  assert.deepEqual(await s.call("read_mcp_resource", { server: "docs", uri: "docs://gone" }), {
    text: "resources/read failed: MCP error -32002: Resource not found: docs://gone\n" +
      "Read only URIs the server lists, exactly as listed",
    isError: true,
  });
});

Deno.test("qwen-code read_mcp_resource: the text between Qwen Code's delimiters", async () => {
  await using s = await session("qwen-code");
  const args = { server_name: "docs", uri: "docs://guide" };
  assert.deepEqual(await s.call("read_mcp_resource", args), {
    text: "--- Content from MCP resource docs:docs://guide ---\n# Guide\nRead me.\n" +
      "--- End of MCP resource docs:docs://guide ---",
    isError: false,
  });
  const missing = await s.call("read_mcp_resource", { server_name: "", uri: "x" });
  assert.equal(missing.isError, true);
});
